package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Map;

import static io.fulcrum.sample.ArgType.*;

/**
 * Cryptographic converters (configuration.txt 7.3.1): sha1, sha2, digest and hmac with OpenSSL's digest
 * names, aes_gcm_dec (keys, nonces and tags are base64 text, given as is or in a variable) and jwt_verify.
 */
final class CryptoConverters {
    private CryptoConverters() {
    }

    /**
     * OpenSSL's names for the digests the JDK has (compared without case); OpenSSL knows a few more
     * (BLAKE2, RIPEMD160, SM3, SHAKE, MD4, whirlpool), which are refused with a message of their own.
     */
    private static final Map<String, String> DIGESTS = Map.ofEntries(
            Map.entry("md5", "MD5"), Map.entry("ssl3-md5", "MD5"), Map.entry("rsa-md5", "MD5"),
            Map.entry("md5withrsaencryption", "MD5"),
            Map.entry("sha1", "SHA-1"), Map.entry("sha-1", "SHA-1"), Map.entry("ssl3-sha1", "SHA-1"),
            Map.entry("rsa-sha1", "SHA-1"), Map.entry("rsa-sha1-2", "SHA-1"), Map.entry("sha1withrsaencryption", "SHA-1"),
            Map.entry("sha224", "SHA-224"), Map.entry("sha2-224", "SHA-224"), Map.entry("sha-224", "SHA-224"),
            Map.entry("rsa-sha224", "SHA-224"), Map.entry("sha224withrsaencryption", "SHA-224"),
            Map.entry("sha256", "SHA-256"), Map.entry("sha2-256", "SHA-256"), Map.entry("sha-256", "SHA-256"),
            Map.entry("rsa-sha256", "SHA-256"), Map.entry("sha256withrsaencryption", "SHA-256"),
            Map.entry("sha384", "SHA-384"), Map.entry("sha2-384", "SHA-384"), Map.entry("sha-384", "SHA-384"),
            Map.entry("rsa-sha384", "SHA-384"), Map.entry("sha384withrsaencryption", "SHA-384"),
            Map.entry("sha512", "SHA-512"), Map.entry("sha2-512", "SHA-512"), Map.entry("sha-512", "SHA-512"),
            Map.entry("rsa-sha512", "SHA-512"), Map.entry("sha512withrsaencryption", "SHA-512"),
            Map.entry("sha512-224", "SHA-512/224"), Map.entry("sha2-512/224", "SHA-512/224"),
            Map.entry("sha-512/224", "SHA-512/224"), Map.entry("rsa-sha512/224", "SHA-512/224"),
            Map.entry("sha512-224withrsaencryption", "SHA-512/224"),
            Map.entry("sha512-256", "SHA-512/256"), Map.entry("sha2-512/256", "SHA-512/256"),
            Map.entry("sha-512/256", "SHA-512/256"), Map.entry("rsa-sha512/256", "SHA-512/256"),
            Map.entry("sha512-256withrsaencryption", "SHA-512/256"),
            Map.entry("sha3-224", "SHA3-224"), Map.entry("sha3-256", "SHA3-256"), Map.entry("sha3-384", "SHA3-384"),
            Map.entry("sha3-512", "SHA3-512"), Map.entry("rsa-sha3-224", "SHA3-224"), Map.entry("rsa-sha3-256", "SHA3-256"),
            Map.entry("rsa-sha3-384", "SHA3-384"), Map.entry("rsa-sha3-512", "SHA3-512"),
            Map.entry("md5-sha1", "MD5-SHA1"));

    private static final java.util.Set<String> OTHER_OPENSSL_DIGESTS = java.util.Set.of("blake2b512", "blake2s256",
            "blake2b-512", "blake2s-256", "md4", "rsa-md4", "md4withrsaencryption", "ripemd160", "ripemd", "rmd160",
            "ripemd-160", "rsa-ripemd160", "ripemd160withrsa", "sm3", "rsa-sm3", "sm3withrsaencryption", "shake128",
            "shake256", "shake-128", "shake-256", "whirlpool", "mdc2", "md2");

    static void register(SampleCatalog c) {
        c.converter(new Converter("sha1", ArgSpec.NONE, SampleType.BIN, SampleType.BIN,
                (a, smp, ctx) -> smp.setBin(digest("SHA-1", smp))));
        c.converter(new Converter("sha2", ArgSpec.of(0, SINT), SampleType.BIN, SampleType.BIN,
                (a, smp, ctx) -> smp.setBin(digest("SHA-" + (a.length > 0 ? a[0].num() : 256), smp)), CryptoConverters::checkSha2));
        c.converter(new Converter("digest", ArgSpec.of(1, STR), SampleType.BIN, SampleType.BIN,
                (a, smp, ctx) -> smp.setBin(digest(a[0].as(String.class), smp)), a -> a[0] = digestArg(a[0])));
        c.converter(new Converter("hmac", ArgSpec.of(2, STR, STR), SampleType.BIN, SampleType.BIN,
                CryptoConverters::hmac, a -> {
                    a[0] = digestArg(a[0]);
                    a[1] = base64Arg(a[1], "key");
                }));
        c.converter(new Converter("aes_gcm_dec", ArgSpec.of(4, SINT, STR, STR, STR), SampleType.BIN, SampleType.BIN,
                CryptoConverters::aesGcmDecrypt, CryptoConverters::checkAesGcm));
        c.converter(new Converter("jwt_verify", ArgSpec.of(2, STR, STR), SampleType.BIN, SampleType.SINT, Jwt::verify, Jwt::check));
    }

    // --- digests -------------------------------------------------------------------------------------

    private static void checkSha2(Arg[] a) throws ConfigException {
        if (a.length > 0 && a[0].num() != 224 && a[0].num() != 256 && a[0].num() != 384 && a[0].num() != 512) {
            throw new ConfigException("Unsupported number of bits: '" + a[0].num() + "'");
        }
    }

    /** The digest's JDK name, checked at configuration time. */
    private static Arg digestArg(Arg name) throws ConfigException {
        String key = name.text().toLowerCase(Locale.ROOT);
        String jdk = DIGESTS.get(key);
        if (jdk == null && OTHER_OPENSSL_DIGESTS.contains(key)) {
            throw new ConfigException("digest algorithm '" + name.text() + "' is not supported by Fulcrum yet");
        }
        if (jdk == null) {
            throw new ConfigException("algorithm must be a valid OpenSSL message digest name."); // (sic: HAProxy adds a second '.')
        }
        return new Arg(STR, name.text(), 0, jdk);
    }

    static byte[] digest(String algorithm, Sample smp) {
        if (algorithm.equals("MD5-SHA1")) {
            // OpenSSL's MD5-SHA1 (used by TLS 1.0): both digests, one after the other.
            byte[] md5 = digest("MD5", smp);
            byte[] sha1 = digest("SHA-1", smp);
            byte[] both = java.util.Arrays.copyOf(md5, md5.length + sha1.length);
            System.arraycopy(sha1, 0, both, md5.length, sha1.length);
            return both;
        }
        MessageDigest md = newDigest(algorithm);
        md.update(smp.bytes(), smp.offset(), smp.length());
        return md.digest();
    }

    private static MessageDigest newDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
    }

    // --- hmac ----------------------------------------------------------------------------------------

    private static boolean hmac(Arg[] a, Sample smp, SampleContext ctx) {
        byte[] key = base64Value(a[1], ctx);
        if (key == null) {
            return false;
        }
        String alg = a[0].as(String.class);
        byte[] data = smp.toByteArray();
        return smp.setBin(alg.equals("MD5-SHA1") ? Hmac.md5sha1(key, data) : Hmac.mac(alg, key, data));
    }

    /** HMAC with the JDK's Mac, or by RFC 2104 over MD5-SHA1, which the JDK lacks. */
    private static final class Hmac {
        private Hmac() {
        }

        static byte[] mac(String digest, byte[] key, byte[] data) {
            String name = digest.startsWith("SHA-") ? "HmacSHA" + digest.substring(4) : "Hmac" + digest;
            try {
                Mac mac = Mac.getInstance(name);
                // An empty key is valid for HMAC but not for SecretKeySpec; a zero byte pads the same way.
                mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, name));
                return mac.doFinal(data);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK lacks " + name, e);
            }
        }

        static byte[] md5sha1(byte[] key, byte[] data) {
            MessageDigest md = new Md5Sha1();
            int block = 64;
            byte[] k = java.util.Arrays.copyOf(key.length > block ? md.digest(key) : key, block);
            byte[] pad = new byte[block];
            for (int i = 0; i < block; i++) {
                pad[i] = (byte) (k[i] ^ 0x36);
            }
            md.update(pad);
            byte[] inner = md.digest(data);
            for (int i = 0; i < block; i++) {
                pad[i] = (byte) (k[i] ^ 0x5c);
            }
            md.update(pad);
            return md.digest(inner);
        }
    }

    /** OpenSSL's MD5-SHA1 as a MessageDigest, for HMAC. */
    private static final class Md5Sha1 extends MessageDigest {
        private final MessageDigest md5 = newDigest("MD5");
        private final MessageDigest sha1 = newDigest("SHA-1");

        Md5Sha1() {
            super("MD5-SHA1");
        }

        @Override
        protected void engineUpdate(byte input) {
            md5.update(input);
            sha1.update(input);
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int len) {
            md5.update(input, offset, len);
            sha1.update(input, offset, len);
        }

        @Override
        protected byte[] engineDigest() {
            byte[] a = md5.digest();
            byte[] b = sha1.digest();
            byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, both, a.length, b.length);
            return both;
        }

        @Override
        protected int engineGetDigestLength() {
            return 36;
        }

        @Override
        protected void engineReset() {
            md5.reset();
            sha1.reset();
        }
    }

    // --- base64 arguments -----------------------------------------------------------------------------

    /** A variable name, else base64 text decoded now; HAProxy's words when it is neither. */
    static Arg base64Arg(Arg arg, String what) throws ConfigException {
        try {
            return new Arg(VAR, arg.text(), 0, VarRef.parse(arg.text()));
        } catch (ConfigException notAVariable) {
            byte[] v = EncodingConverters.base64(arg.text());
            if (v == null) {
                throw new ConfigException("failed to parse " + what
                        + " : argument needs to be base64 encoded, and can either be a string or a variable");
            }
            return new Arg(STR, arg.text(), 0, v);
        }
    }

    /** The bytes of a base64 argument; for a variable, its text decoded now (null when missing or not base64). */
    static byte[] base64Value(Arg arg, SampleContext ctx) {
        if (arg.type() != VAR) {
            return arg.as(byte[].class);
        }
        Sample v = arg.as(VarRef.class).getAs(ctx, SampleType.STR);
        return v == null ? null : EncodingConverters.base64(v.bytes(), v.offset(), v.length());
    }

    // --- aes_gcm_dec ---------------------------------------------------------------------------------

    private static void checkAesGcm(Arg[] a) throws ConfigException {
        if (a[0].num() != 128 && a[0].num() != 192 && a[0].num() != 256) {
            throw new ConfigException("key size must be 128, 192 or 256 (bits)");
        }
        a[1] = base64Arg(a[1], "nonce");
        a[2] = base64Arg(a[2], "key");
        a[3] = base64Arg(a[3], "aead_tag");
    }

    /**
     * Decrypts and checks the tag; no result when it does not match. As with OpenSSL, a longer key is cut to
     * the size and a tag may be shorter than 16 bytes.
     */
    private static boolean aesGcmDecrypt(Arg[] a, Sample smp, SampleContext ctx) {
        byte[] nonce = base64Value(a[1], ctx);
        byte[] key = base64Value(a[2], ctx);
        byte[] tag = base64Value(a[3], ctx);
        int keyLength = (int) a[0].num() / 8;
        if (nonce == null || key == null || tag == null || key.length < keyLength || nonce.length == 0 || tag.length == 0
                || tag.length > 16) {
            return false;
        }
        SecretKeySpec aes = new SecretKeySpec(key, 0, keyLength, "AES");
        byte[] data = smp.toByteArray();
        try {
            if (tag.length >= 12) {
                Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
                cipher.init(Cipher.DECRYPT_MODE, aes, new GCMParameterSpec(tag.length * 8, nonce));
                // The JDK takes the tag at the end of the ciphertext.
                byte[] in = java.util.Arrays.copyOf(data, data.length + tag.length);
                System.arraycopy(tag, 0, in, data.length, tag.length);
                return smp.setBin(cipher.doFinal(in));
            }
            // Tags the JDK refuses: GCM is a stream cipher, so encrypting zeros gives the key stream, and encrypting
            // the plaintext again gives the full tag to compare with.
            byte[] plain = gcmEncrypt(aes, nonce, new byte[data.length]);
            for (int i = 0; i < data.length; i++) {
                plain[i] ^= data[i];
            }
            plain = java.util.Arrays.copyOf(plain, data.length);
            byte[] full = gcmEncrypt(aes, nonce, plain);
            byte[] expected = java.util.Arrays.copyOfRange(full, data.length, data.length + tag.length);
            return MessageDigest.isEqual(expected, tag) && smp.setBin(plain);
        } catch (GeneralSecurityException e) {
            return false; // AEADBadTagException when the tag does not match
        }
    }

    /** The ciphertext followed by the 16-byte tag. */
    private static byte[] gcmEncrypt(SecretKeySpec key, byte[] nonce, byte[] plain) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        return cipher.doFinal(plain);
    }

    /**
     * jwt_verify(alg, key): 1 when the signature of a JSON Web Token (compact form) is right, 0 when it is not,
     * -1 for an unknown algorithm, -2 for RSASSA-PSS, -3 for a malformed token, -5 for an unknown public key.
     * HMAC keys are the secret itself; RSA and ECDSA keys are paths to PEM public keys, read when the
     * configuration is (a path in a variable finds only those).
     */
    static final class Jwt {
        private static final Map<String, String> ALGORITHMS = Map.ofEntries(
                Map.entry("HS256", "HmacSHA256"), Map.entry("HS384", "HmacSHA384"), Map.entry("HS512", "HmacSHA512"),
                Map.entry("RS256", "SHA256withRSA"), Map.entry("RS384", "SHA384withRSA"), Map.entry("RS512", "SHA512withRSA"),
                Map.entry("ES256", "SHA256withECDSA"), Map.entry("ES384", "SHA384withECDSA"),
                Map.entry("ES512", "SHA512withECDSA"), Map.entry("none", ""));
        private static final Map<String, java.security.PublicKey> KEYS = new java.util.concurrent.ConcurrentHashMap<>();

        private Jwt() {
        }

        static void check(Arg[] a) throws ConfigException {
            a[0] = variableOr(a[0]);
            if (a[0].type() == STR && !ALGORITHMS.containsKey(a[0].text())) {
                throw new ConfigException(a[0].text().startsWith("PS") && ALGORITHMS.containsKey("RS" + a[0].text().substring(2))
                        ? "RSASSA-PSS JWS signing not managed yet" : "unknown JWT algorithm: " + a[0].text());
            }
            a[1] = variableOr(a[1]);
            if (a[1].type() == STR && !a[0].text().startsWith("HS") && !a[0].text().equals("none")) {
                load(a[1].text());
            }
        }

        private static Arg variableOr(Arg arg) {
            try {
                return new Arg(VAR, arg.text(), 0, VarRef.parse(arg.text()));
            } catch (ConfigException notAVariable) {
                return arg;
            }
        }

        /** Reads a PEM public key ("BEGIN PUBLIC KEY"); a file that is not one is left unknown (-5 when used). */
        private static void load(String path) {
            try {
                String pem = java.nio.file.Files.readString(java.nio.file.Path.of(path), java.nio.charset.StandardCharsets.ISO_8859_1);
                int begin = pem.indexOf("-----BEGIN PUBLIC KEY-----");
                int end = pem.indexOf("-----END PUBLIC KEY-----");
                if (begin < 0 || end < begin) {
                    return;
                }
                byte[] der = java.util.Base64.getMimeDecoder().decode(pem.substring(begin + 26, end));
                var spec = new java.security.spec.X509EncodedKeySpec(der);
                for (String kind : new String[]{"RSA", "EC"}) {
                    try {
                        KEYS.put(path, java.security.KeyFactory.getInstance(kind).generatePublic(spec));
                        return;
                    } catch (GeneralSecurityException notThisKind) {
                        // try the next kind
                    }
                }
            } catch (java.io.IOException | IllegalArgumentException unreadable) {
                // unknown key: -5 when used
            }
        }

        private static String text(Arg arg, SampleContext ctx) {
            if (arg.type() != VAR) {
                return arg.text();
            }
            Sample v = arg.as(VarRef.class).getAs(ctx, SampleType.STR);
            return v == null ? null : v.text();
        }

        static boolean verify(Arg[] a, Sample smp, SampleContext ctx) {
            String alg = text(a[0], ctx);
            String key = text(a[1], ctx);
            if (alg == null || key == null) {
                return false;
            }
            String jdk = ALGORITHMS.get(alg);
            if (jdk == null) {
                return smp.setSint(alg.startsWith("PS") && ALGORITHMS.containsKey("RS" + alg.substring(2)) ? -2 : -1);
            }
            return smp.setSint(result(alg, jdk, key, smp.text()));
        }

        private static int result(String alg, String jdk, String key, String token) {
            String[] parts = token.split("\\.", -1);
            boolean none = alg.equals("none");
            if (parts.length != 3 && !(none && parts.length == 2)) {
                return -3;
            }
            byte[] sig = parts.length == 3 ? EncodingConverters.base64url(parts[2].getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                    0, parts[2].length()) : new byte[0];
            if (sig == null) {
                return -3;
            }
            if (none) {
                return sig.length == 0 ? 1 : 0;
            }
            if (sig.length == 0) {
                return -3;
            }
            byte[] signed = (parts[0] + "." + parts[1]).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            try {
                if (alg.startsWith("HS")) {
                    Mac mac = Mac.getInstance(jdk);
                    byte[] k = key.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                    mac.init(new SecretKeySpec(k.length == 0 ? new byte[1] : k, jdk));
                    return MessageDigest.isEqual(mac.doFinal(signed), sig) ? 1 : 0;
                }
                java.security.PublicKey pub = KEYS.get(key);
                if (pub == null) {
                    return -5;
                }
                if (alg.startsWith("ES")) {
                    if (!(pub instanceof java.security.interfaces.ECPublicKey ec)) {
                        return 0;
                    }
                    // r and s have the size of the key's curve, whatever the hash.
                    int size = (ec.getParams().getCurve().getField().getFieldSize() + 7) / 8;
                    if (sig.length != 2 * size) {
                        return -3;
                    }
                    sig = der(sig, size);
                }
                java.security.Signature verifier = java.security.Signature.getInstance(jdk);
                verifier.initVerify(pub);
                verifier.update(signed);
                return verifier.verify(sig) ? 1 : 0;
            } catch (GeneralSecurityException wrongKey) {
                return 0;
            }
        }

        /** An ECDSA signature from JWS's r||s to the DER sequence the JDK takes. */
        private static byte[] der(byte[] rs, int size) {
            byte[] r = integer(rs, 0, size);
            byte[] s = integer(rs, size, size);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int len = r.length + s.length;
            out.write(0x30);
            if (len >= 128) {
                out.write(0x81);
            }
            out.write(len);
            out.writeBytes(r);
            out.writeBytes(s);
            return out.toByteArray();
        }

        /** A DER INTEGER of an unsigned big-endian number. */
        private static byte[] integer(byte[] b, int off, int len) {
            byte[] v = new java.math.BigInteger(1, java.util.Arrays.copyOfRange(b, off, off + len)).toByteArray();
            byte[] out = new byte[v.length + 2];
            out[0] = 0x02;
            out[1] = (byte) v.length;
            System.arraycopy(v, 0, out, 2, v.length);
            return out;
        }
    }
}
