package io.fulcrum.tls;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.netty.handler.ssl.OpenSslPrivateKeyMethod;

import javax.crypto.Cipher;
import javax.net.ssl.SSLEngine;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The RSA operations of one certificate's key, done by the system's OpenSSL 3 ({@link LibCrypto}) for BoringSSL:
 * the handshake's signature (TLS 1.3's CertificateVerify, TLS 1.2's ServerKeyExchange) and TLS 1.2's RSA key
 * exchange. The native key is made once per key (contexts of crt-list lines and generated certificates share it) and
 * freed when no context uses it; OpenSSL 3 lets threads sign with one key at once. What OpenSSL refuses (a system
 * policy against SHA-1 signatures, a FIPS provider) the JDK does, some ten times slower: BoringSSL has no key to
 * fall back on.
 */
final class RsaKeyMethod implements OpenSslPrivateKeyMethod {
    /** The methods made, by key; a method lives as long as a context uses it, the entry no longer. */
    private static final Map<PrivateKey, WeakReference<RsaKeyMethod>> MADE = new WeakHashMap<>();
    private static Cleaner cleaner;

    /** The native key, 0 for none (then the JDK does everything). */
    private final long pkey;
    private final PrivateKey key;
    /** The modulus' length in bytes: the length of a signature and of a decrypted block. */
    private final int size;

    RsaKeyMethod(long pkey, RSAPrivateKey key) {
        this.pkey = pkey;
        this.key = key;
        this.size = (key.getModulus().bitLength() + 7) / 8;
    }

    /**
     * The method of {@code key}; null for a key that is not RSA (nor an RSA-PSS one, which BoringSSL refuses anyway)
     * or without OpenSSL 3: BoringSSL does it all then.
     */
    static synchronized RsaKeyMethod of(PrivateKey key) {
        if (!(key instanceof RSAPrivateKey rsa) || !key.getAlgorithm().equals("RSA") || !LibCrypto.available()) {
            return null;
        }
        WeakReference<RsaKeyMethod> made = MADE.get(key);
        RsaKeyMethod m = made == null ? null : made.get();
        if (m == null) {
            long pkey = nativeKey(key.getEncoded());
            if (pkey == 0) {
                return null;
            }
            m = new RsaKeyMethod(pkey, rsa);
            if (cleaner == null) {
                cleaner = Cleaner.create();
            }
            cleaner.register(m, () -> LibCrypto.EVP_PKEY_free(pkey));
            MADE.put(key, new WeakReference<>(m));
        }
        return m;
    }

    /** OpenSSL's copy of a key (PKCS #8); the copies on the way are wiped. */
    private static long nativeKey(byte[] der) {
        if (der == null) {
            return 0;
        }
        try (Memory memory = new Memory(der.length)) {
            memory.write(0, der, 0, der.length);
            Arrays.fill(der, (byte) 0);
            long pkey = LibCrypto.d2i_AutoPrivateKey(0, new long[] {Pointer.nativeValue(memory)}, der.length);
            memory.clear();
            if (pkey == 0) {
                LibCrypto.ERR_clear_error();
            }
            return pkey;
        }
    }

    /**
     * A TLS RSA signature scheme: its digest (the JDK's name; null for TLS 1.0's MD5 and SHA-1 side by side), PSS or
     * PKCS #1 v1.5.
     */
    private record Scheme(String digest, boolean pss) {
        /** BoringSSL's numbers are TLS's; Netty reads them from it at run time (no switch on them). */
        static Scheme of(int algorithm) throws SignatureException {
            if (algorithm == SSL_SIGN_RSA_PKCS1_SHA256 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA256) {
                return new Scheme("SHA-256", algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA256);
            } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA384 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA384) {
                return new Scheme("SHA-384", algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA384);
            } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA512 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA512) {
                return new Scheme("SHA-512", algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA512);
            } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA1) {
                return new Scheme("SHA-1", false);
            } else if (algorithm == SSL_SIGN_RSA_PKCS1_MD5_SHA1) {
                return new Scheme(null, false);
            }
            throw new SignatureException("no RSA signature scheme 0x" + Integer.toHexString(algorithm));
        }

        long md() {
            return switch (digest == null ? "" : digest) {
                case "SHA-256" -> LibCrypto.EVP_sha256();
                case "SHA-384" -> LibCrypto.EVP_sha384();
                case "SHA-512" -> LibCrypto.EVP_sha512();
                case "SHA-1" -> LibCrypto.EVP_sha1();
                default -> LibCrypto.EVP_md5_sha1();
            };
        }
    }

    @Override
    public byte[] sign(SSLEngine engine, int algorithm, byte[] input) throws GeneralSecurityException {
        Scheme scheme = Scheme.of(algorithm);
        byte[] sig = pkey == 0 ? null : signWithOpenSsl(scheme, input);
        return sig != null ? sig : signWithJdk(scheme, input);
    }

    /** Null when OpenSSL refused. */
    private byte[] signWithOpenSsl(Scheme scheme, byte[] input) {
        long ctx = LibCrypto.EVP_MD_CTX_new();
        try {
            long[] pctx = new long[1];
            byte[] sig = new byte[size];
            long[] length = {size};
            int padding = scheme.pss ? LibCrypto.RSA_PKCS1_PSS_PADDING : LibCrypto.RSA_PKCS1_PADDING;
            if (ctx == 0 || LibCrypto.EVP_DigestSignInit(ctx, pctx, scheme.md(), 0, pkey) != 1
                    || LibCrypto.EVP_PKEY_CTX_set_rsa_padding(pctx[0], padding) != 1
                    || scheme.pss
                    && LibCrypto.EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx[0], LibCrypto.RSA_PSS_SALTLEN_DIGEST) != 1
                    || LibCrypto.EVP_DigestSign(ctx, sig, length, input, input.length) != 1) {
                LibCrypto.ERR_clear_error();
                return null;
            }
            return filled(sig, length[0]);
        } finally {
            LibCrypto.EVP_MD_CTX_free(ctx);
        }
    }

    /** The first {@code length} bytes OpenSSL wrote to {@code out} (all of them, as a rule). */
    private static byte[] filled(byte[] out, long length) {
        return length == out.length ? out : Arrays.copyOf(out, (int) length);
    }

    private byte[] signWithJdk(Scheme scheme, byte[] input) throws GeneralSecurityException {
        Signature s;
        byte[] signed = input;
        if (scheme.digest == null) {
            s = Signature.getInstance("NONEwithRSA"); // PKCS #1 v1.5 padding, no algorithm identifier
            byte[] md5 = MessageDigest.getInstance("MD5").digest(input);
            signed = Arrays.copyOf(md5, md5.length + 20);
            System.arraycopy(MessageDigest.getInstance("SHA-1").digest(input), 0, signed, md5.length, 20);
        } else if (scheme.pss) {
            s = Signature.getInstance("RSASSA-PSS");
            s.setParameter(new PSSParameterSpec(scheme.digest, "MGF1", new MGF1ParameterSpec(scheme.digest),
                    MessageDigest.getInstance(scheme.digest).getDigestLength(), PSSParameterSpec.TRAILER_FIELD_BC));
        } else {
            s = Signature.getInstance(scheme.digest.replace("-", "") + "withRSA");
        }
        s.initSign(key);
        s.update(signed);
        return s.sign();
    }

    /** TLS 1.2's RSA key exchange: the raw RSA operation, the whole block (BoringSSL removes the padding itself). */
    @Override
    public byte[] decrypt(SSLEngine engine, byte[] input) throws GeneralSecurityException {
        byte[] out = pkey == 0 ? null : decryptWithOpenSsl(input);
        if (out == null) {
            Cipher raw = Cipher.getInstance("RSA/ECB/NoPadding");
            raw.init(Cipher.DECRYPT_MODE, key);
            out = raw.doFinal(input);
        }
        return out;
    }

    private byte[] decryptWithOpenSsl(byte[] input) {
        long ctx = LibCrypto.EVP_PKEY_CTX_new(pkey, 0);
        try {
            byte[] out = new byte[size];
            long[] length = {size};
            if (ctx == 0 || LibCrypto.EVP_PKEY_decrypt_init(ctx) != 1
                    || LibCrypto.EVP_PKEY_CTX_set_rsa_padding(ctx, LibCrypto.RSA_NO_PADDING) != 1
                    || LibCrypto.EVP_PKEY_decrypt(ctx, out, length, input, input.length) != 1) {
                LibCrypto.ERR_clear_error();
                return null;
            }
            return filled(out, length[0]);
        } finally {
            LibCrypto.EVP_PKEY_CTX_free(ctx);
        }
    }
}
