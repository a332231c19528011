package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class CryptoConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(abc),sha1 => bin:A9993E364706816ABA3E25717850C26C9CD0D89D
            str(),sha1 => bin:DA39A3EE5E6B4B0D3255BFEF95601890AFD80709
            str(abc),sha2 => bin:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
            str(abc),sha2(224) => bin:23097D223405D8228642A477BDA255B32AADBCE4BDA0B3F7E36C9DA7
            str(abc),sha2(256) => bin:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
            str(abc),sha2(384) => bin:CB00753F45A35E8BB5A03D699AC65007272C32AB0EDED1631A8B605A43FF5BED8086072BA1E7CC2358BAECA134C825A7
            str(abc),sha2(512) => bin:DDAF35A193617ABACC417349AE20413112E6FA4E89A97EA20A9EEEE64B55D39A2192992A274FC1A836BA3C23A3FEEBBD454D4423643CE80E2A9AC94FA54CA49F
            str(abc),digest(md5) => bin:900150983CD24FB0D6963F7D28E17F72
            str(abc),digest(MD5) => bin:900150983CD24FB0D6963F7D28E17F72
            str(abc),digest(sha256) => bin:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
            str(abc),digest(SHA2-256) => bin:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
            str(abc),digest(sha-256) => bin:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD
            str(abc),digest(sha512-224) => bin:4634270F707B6A54DAAE7530460842E20E37ED265CEEE9A43E8924AA
            str(abc),digest(sha512-256) => bin:53048E2681941EF99B2E29B76B4C7DABE4C2D0C634FC6D46E0E2F13107E7AF23
            str(abc),digest(sha3-256) => bin:3A985DA74FE225B2045C172D6BD390BD855F086E3E9D525B46BFE24511431532
            str(abc),digest(md5-sha1) => bin:900150983CD24FB0D6963F7D28E17F72A9993E364706816ABA3E25717850C26C9CD0D89D
            str(abc),digest(RSA-SHA1) => bin:A9993E364706816ABA3E25717850C26C9CD0D89D
            str(abc),digest(sha1WithRSAEncryption) => bin:A9993E364706816ABA3E25717850C26C9CD0D89D
            str(abc),digest(ssl3-md5) => bin:900150983CD24FB0D6963F7D28E17F72
            str(abc),hmac(sha256,bXkgc2VjcmV0) => bin:6B4408991120B287B6384B1D5167986189956774436F5D65EAAD801D2E96C4AB
            str(abc),hmac(sha256,proc.b64key) => bin:6B4408991120B287B6384B1D5167986189956774436F5D65EAAD801D2E96C4AB
            str(abc),hmac(sha256,proc.key) => none
            str(abc),hmac(sha256,proc.none) => none
            str(abc),hmac(md5,) => bin:DD2701993D29FDD0B032C233CEC63403
            str(abc),hmac(sha1,AAAA) => bin:9B4A918F398D74D3E367970ABA3CBE54E4D2B5D9
            str(abc),hmac(sha512,bXkgc2VjcmV0) => bin:08028C59C87C616AB509802E74F4D0AC2BBC584FACB0B49D63D4B53F9E9A5442320581EA75110DB9976BBE64C11C0ABDBE5350D6C3CEBDCAA807FA0D56D81714
            int(1),sha1 => bin:CB473678976F425D6EC1339838F11011007AD27D
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO+mqZkCz4jw==) => bin:68656C6C6F20776F726C64
            str(3u/snM0ESkTmsgE=),b64dec,aes_gcm_dec(192,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjanF4f4aNlJui,kx1qGf+FqsQref2ii0Xonw==) => bin:68656C6C6F20776F726C64
            str(cgSCq9LUdkS5v1U=),b64dec,aes_gcm_dec(256,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjanF4f4aNlJuiqbC3vsXM09o=,7Z/8q592rOlPxpwf1HtDoQ==) => bin:68656C6C6F20776F726C64
            str(q/8+D1A0gRyPwvQ=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMmKSwvMg==,AQgPFh0kKzI5QEdOVVxjag==,FiE+HDwZjAKyzMsVfncTJQ==) => bin:68656C6C6F20776F726C64
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO+mqZ) => bin:68656C6C6F20776F726C64
            str(YGzA+5ekBHCOAqM=),b64dec,aes_gcm_dec(128,BQgLDhEUFxo=,AQgPFh0kKzI5QEdOVVxjag==,LyJN1Bw/Wc4X7pkMd+O/wQ==) => bin:68656C6C6F20776F726C64
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO+mqZkCz4jA==) => none
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(192,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO+mqZkCz4jw==) => none
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjanF4f4aNlJui,9m/wMNtHpATO+mqZkCz4jw==) => bin:68656C6C6F20776F726C64
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO) => bin:68656C6C6F20776F726C64
            str(NuVYop+uAgOkC+Y=),b64dec,aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,) => none
            str(),aes_gcm_dec(128,BQgLDhEUFxodICMm,AQgPFh0kKzI5QEdOVVxjag==,9m/wMNtHpATO+mqZkCz4jw==) => none
            str(abc),hmac(sha3-256,bXkgc2VjcmV0) => bin:915127295575D392B1A32DF108583A56159F65A6193F812CEA640C87D10A8ABD
            str(abc),hmac(sha512-224,bXkgc2VjcmV0) => bin:25FF7E062FA37440F3F272E3472BD6548CD2DC941BE23AC0E47E3D76
            str(abc),hmac(md5-sha1,bXkgc2VjcmV0) => bin:B09604D70F1677553F73A3643E704F33F7636BF7DA870DCB762ABC1182ECBEA1204655C5
            str(abc),digest(sha3-512) => bin:B751850B1A57168A5693CD924B6B096E08F621827444F70D884F5D0240D2712E10E116E9192AF3C91A7EC57647E3934057340B4CF408D5A56592F8274EEC53F0
            str(abc),hmac(sha1,proc.b64key) => bin:00A6AD9A4D109FC7CB7D9AF1F9FF38AB07D4AB12
            str(abc),hmac(sha256,AA==) => bin:FD7ADB152C05EF80DCCF50A1FA4C05D5A3EC6DA95575FC312AE7C5D091836351
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS256,'my secret') => sint:1
            str(eyJhbGciOiJIUzM4NCIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.BWA8SXTk1ClKmbY-aywkjbNUqaEyF0R5UP4FhOrVv9ypkxyj_CmXLqn4hyWnG60f),jwt_verify(HS384,'my secret') => sint:1
            str(eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.pf-v9FmhRWcDnyI_2IYfprnc61Mn4vh_uRM8yWrB4fDbNTGUSI7e5nmEGDqZa63gLTNBTQxxX0xzi-Dc3CmFVQ),jwt_verify(HS512,'my secret') => sint:1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS256,'wrong') => sint:0
            str(eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.XIoMbPf7AdvUqeuIY6uZ0k4oEMW2GPXE3BUMXHHeJMY),jwt_verify(HS256,'my secret') => sint:1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS512,'my secret') => sint:0
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-),jwt_verify(HS256,'my secret') => sint:-3
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0),jwt_verify(HS256,'my secret') => sint:-3
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.),jwt_verify(HS256,'my secret') => sint:-3
            str(abc),jwt_verify(HS256,'my secret') => sint:-3
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0.x),jwt_verify(HS256,'my secret') => sint:-3
            str(@@.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS256,'my secret') => sint:0
            str(eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0.),jwt_verify(none,'my secret') => sint:1
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDafaA),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/jwt-rsa.pub') => sint:1
            str(eyJhbGciOiJSUzUxMiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.AL-EdlLgH1TXHRm-7Jxpf5Fy4OKe-oAacjQbrTlN8GOqTirAHUkJLdd4igc3s3dHkxECMWI-6k81fpQls8FWJjQYS2aDuSuhUNKhyeWEIMtzQcWjCZ01vTgcqHE9cgfHbv4503tmx0ueyRWOTBgqO40jMuKs97MmeQzCve7i9awTlAnyHXwHXhbZdylL8LUtJDH4m8m66HgYUqxhlTlZAj9slcvylVDKjnZt1Obm3zWLxi09mGOG1oTpMCOZp8sp2r1sWGcCnZjqzPAb2TrmROBHD0y0OHogEvGqTdXswyGma9ydXSJMdzqdmUf-mzrb2v7KpOe-cL4YQmk4ZCA7Aw),jwt_verify(RS512,'src/test/resources/io/fulcrum/sample/jwt-rsa.pub') => sint:1
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDaAAA),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/jwt-rsa.pub') => sint:0
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDafaA),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/nonexistent.pem') => sint:-5
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDafaA),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/jwt-ec.pub') => sint:0
            str(eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.NVOqP2S0MkxiEOXp0w-PjMeAw2U41VDR486DpLHFrFd2ZpAMR3pK7jzmgxPZKVU_H5UomsEQxT4JEMDqv-TCdA),jwt_verify(ES256,'src/test/resources/io/fulcrum/sample/jwt-ec.pub') => sint:1
            str(eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.6plWxPBKLryHSjTINjekvprrK8sEofBD3-lpsFfwsL-yDWjkKt_-dDgj7psdDVRm5hQUkCOZG4paHZAdHoGQhw),jwt_verify(ES384,'src/test/resources/io/fulcrum/sample/jwt-ec.pub') => sint:0
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(RS256,'my secret') => sint:-5
            str(eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0.abc),jwt_verify(none,'x') => sint:0
            str(eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4In0),jwt_verify(none,'x') => sint:1
            str(eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.kxgI3xaxwSXzgF2Og85Nxzc_mjlT6w8SYDWKxVtPBQxb7FfjR5qPxcJ5j_eIJRlS_drFXL6OcTV7TKosbf),jwt_verify(ES256,'src/test/resources/io/fulcrum/sample/jwt-ec.pub') => sint:-3
            str(eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.NxGVmenHReEJza10FHEZ34IikwiehW0jFQl-qBtW6YMRm6oMD-wwbBA84OfZ5FGgRcUCPNLzL9j77ms2UVhGKgAAAA),jwt_verify(ES256,'src/test/resources/io/fulcrum/sample/jwt-ec.pub') => sint:-3
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDafaAAAAA),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/jwt-rsa.pub') => sint:0
            str(eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.0ZYLoVhj5YxAovt2TXfgKvmqiJ1hlXLHVAMAMtUOBgK73T0TtnbZuZEaS0mRaa34xnsYHDRi4yBVD6Qu1VY1JrMxLvlLzyUTTv-I9sKVA_9OV9nlHmSI5wAPi4kMgdHG2lo0eBjJ0sYJ61MsK5_6fUUGWCctgls4brkROg4RNL7YPIMw1pK0QOr3Apg_jhvIhRzcpqIW15j3tqtlMsM-NpNPc8E6QxrhAS_LjYhcJEMsboWAac1O_SQL9FAEdHr6DwNFqw-wUAOAfqBIYfvqR6Lmv2QUXZaUkHXt6Y1kiq7i4vz9vB2xWI_wr8EbBA-kL4cnXP4q5-mHyuvvDDafaA@),jwt_verify(RS256,'src/test/resources/io/fulcrum/sample/jwt-rsa.pub') => sint:-3
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.lnKozbYel_W0K_YkTzYJGH_FMceEDonnOIjzwjVWQLg),jwt_verify(HS256,'') => sint:1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(proc.b64key,'my secret') => sint:-1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS256,'proc.key') => sint:1
            str(eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.5TlUoAWZRs7s1u24zscMFjjowLGIkOennVoUseh1-L0),jwt_verify(HS256,'proc.none') => none
            """;
    }

    @Override
    String errors() {
        return """
            str(a),sha2(7) => invalid args in converter 'sha2' : Unsupported number of bits: '7'
            str(a),sha2(0) => invalid args in converter 'sha2' : Unsupported number of bits: '0'
            str(a),sha2(x) => invalid arg 1 in converter 'sha2' : failed to parse 'x' as type 'integer' at position 1
            str(a),digest => invalid args in converter 'digest' : algorithm must be a valid OpenSSL message digest name.
            str(a),digest(nosuch) => invalid args in converter 'digest' : algorithm must be a valid OpenSSL message digest name.
            str(a),digest(sha256,x) => invalid arg 2 in converter 'digest' : expected ')' before ',x)'
            str(a),hmac => invalid arg 2 in converter 'hmac' : missing arguments (got 1/2), type 'string' expected
            str(a),hmac(sha1) => invalid arg 2 in converter 'hmac' : missing arguments (got 1/2), type 'string' expected
            str(a),hmac(nosuch,AAAA) => invalid args in converter 'hmac' : algorithm must be a valid OpenSSL message digest name.
            str(a),hmac(sha1,foo) => invalid args in converter 'hmac' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),hmac(sha1,A) => invalid args in converter 'hmac' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),hmac(sha1,AA=) => invalid args in converter 'hmac' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),hmac(sha1,AAAA====) => invalid args in converter 'hmac' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),hmac(sha1,txn.) => invalid args in converter 'hmac' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),aes_gcm_dec => invalid arg 1 in converter 'aes_gcm_dec' : expected type 'integer' at position 1, but got nothing
            str(a),aes_gcm_dec(128) => invalid arg 2 in converter 'aes_gcm_dec' : missing arguments (got 1/4), type 'string' expected
            str(a),aes_gcm_dec(100,AAAA,AAAA,AAAA) => invalid args in converter 'aes_gcm_dec' : key size must be 128, 192 or 256 (bits)
            str(a),aes_gcm_dec(128,@,AAAA,AAAA) => invalid args in converter 'aes_gcm_dec' : failed to parse nonce : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),aes_gcm_dec(128,AAAA,@,AAAA) => invalid args in converter 'aes_gcm_dec' : failed to parse key : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),aes_gcm_dec(128,AAAA,AAAA,@) => invalid args in converter 'aes_gcm_dec' : failed to parse aead_tag : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),aes_gcm_dec(128,foo,AAAA,AAAA) => invalid args in converter 'aes_gcm_dec' : failed to parse nonce : argument needs to be base64 encoded, and can either be a string or a variable
            str(a),sha1(1) => invalid arg 1 in converter 'sha1' : expected ')' before '1)'
            str(a),jwt_verify(PS384,x) => invalid args in converter 'jwt_verify' : RSASSA-PSS JWS signing not managed yet
            str(a),jwt_verify(hs256,x) => invalid args in converter 'jwt_verify' : unknown JWT algorithm: hs256
            str(a),jwt_verify(XX256,x) => invalid args in converter 'jwt_verify' : unknown JWT algorithm: XX256
            str(a),jwt_verify => invalid arg 2 in converter 'jwt_verify' : missing arguments (got 1/2), type 'string' expected
            str(a),jwt_verify(HS256) => invalid arg 2 in converter 'jwt_verify' : missing arguments (got 1/2), type 'string' expected
            # Digests OpenSSL has and the JDK lacks: refused with Fulcrum's own message (haproxy 2.6.12 accepts them).
            str(a),digest(blake2b512) => invalid args in converter 'digest' : digest algorithm 'blake2b512' is not supported by Fulcrum yet
            """;
    }
}
