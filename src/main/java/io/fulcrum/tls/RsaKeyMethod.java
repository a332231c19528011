package io.fulcrum.tls;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.netty.handler.ssl.OpenSslPrivateKeyMethod;

import javax.net.ssl.SSLEngine;
import java.lang.ref.Cleaner;
import java.security.PrivateKey;
import java.security.SignatureException;
import java.security.interfaces.RSAPrivateKey;
import java.util.Arrays;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The RSA operations of one certificate's key, done by the system's OpenSSL 3 ({@link LibCrypto}) for BoringSSL:
 * the handshake's signature (TLS 1.3's CertificateVerify, TLS 1.2's ServerKeyExchange) and TLS 1.2's RSA key
 * exchange. The native key is made once per key (contexts of crt-list lines and generated certificates share it) and
 * freed when no context uses it; OpenSSL 3 lets threads sign with one key at once.
 */
final class RsaKeyMethod implements OpenSslPrivateKeyMethod {
    private static final Map<PrivateKey, RsaKeyMethod> MADE = new WeakHashMap<>();
    private static Cleaner cleaner;

    private final long pkey;
    /** The modulus' length in bytes: the length of a signature and of a decrypted block. */
    private final int size;

    private RsaKeyMethod(long pkey, int size) {
        this.pkey = pkey;
        this.size = size;
    }

    /**
     * The method of {@code key}; null for a key that is not RSA (nor an RSA-PSS one, which BoringSSL refuses anyway)
     * or without OpenSSL 3: BoringSSL does it all then.
     */
    static synchronized RsaKeyMethod of(PrivateKey key) {
        if (!(key instanceof RSAPrivateKey rsa) || !key.getAlgorithm().equals("RSA") || !LibCrypto.available()) {
            return null;
        }
        RsaKeyMethod m = MADE.get(key);
        if (m == null) {
            long pkey = nativeKey(key.getEncoded());
            if (pkey == 0) {
                return null;
            }
            m = new RsaKeyMethod(pkey, (rsa.getModulus().bitLength() + 7) / 8);
            if (cleaner == null) {
                cleaner = Cleaner.create();
            }
            cleaner.register(m, () -> LibCrypto.EVP_PKEY_free(pkey));
            MADE.put(key, m);
        }
        return m;
    }

    private static long nativeKey(byte[] der) {
        if (der == null) {
            return 0;
        }
        try (Memory memory = new Memory(der.length)) {
            memory.write(0, der, 0, der.length);
            long pkey = LibCrypto.d2i_AutoPrivateKey(0, new long[] {Pointer.nativeValue(memory)}, der.length);
            if (pkey == 0) {
                LibCrypto.ERR_clear_error();
            }
            return pkey;
        }
    }

    @Override
    public byte[] sign(SSLEngine engine, int algorithm, byte[] input) throws SignatureException {
        long md = digest(algorithm);
        int padding = pss(algorithm) ? LibCrypto.RSA_PKCS1_PSS_PADDING : LibCrypto.RSA_PKCS1_PADDING;
        long ctx = LibCrypto.EVP_MD_CTX_new();
        if (ctx == 0) {
            throw failed("sign");
        }
        try {
            long[] pctx = new long[1];
            byte[] sig = new byte[size];
            long[] length = {size};
            if (LibCrypto.EVP_DigestSignInit(ctx, pctx, md, 0, pkey) != 1
                    || LibCrypto.EVP_PKEY_CTX_set_rsa_padding(pctx[0], padding) != 1
                    || padding == LibCrypto.RSA_PKCS1_PSS_PADDING
                    && LibCrypto.EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx[0], LibCrypto.RSA_PSS_SALTLEN_DIGEST) != 1
                    || LibCrypto.EVP_DigestSign(ctx, sig, length, input, input.length) != 1) {
                throw failed("sign");
            }
            return length[0] == size ? sig : Arrays.copyOf(sig, (int) length[0]);
        } finally {
            LibCrypto.EVP_MD_CTX_free(ctx);
        }
    }

    /** The digest of an RSA signature scheme (BoringSSL's numbers are TLS's; Netty reads them at run time). */
    private static long digest(int algorithm) throws SignatureException {
        if (algorithm == SSL_SIGN_RSA_PKCS1_SHA256 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA256) {
            return LibCrypto.EVP_sha256();
        } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA384 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA384) {
            return LibCrypto.EVP_sha384();
        } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA512 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA512) {
            return LibCrypto.EVP_sha512();
        } else if (algorithm == SSL_SIGN_RSA_PKCS1_SHA1) {
            return LibCrypto.EVP_sha1();
        } else if (algorithm == SSL_SIGN_RSA_PKCS1_MD5_SHA1) {
            return LibCrypto.EVP_md5_sha1();
        }
        throw new SignatureException("no RSA signature scheme 0x" + Integer.toHexString(algorithm));
    }

    private static boolean pss(int algorithm) {
        return algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA256 || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA384
                || algorithm == SSL_SIGN_RSA_PSS_RSAE_SHA512;
    }

    /** TLS 1.2's RSA key exchange: the raw RSA operation (BoringSSL removes the padding itself). */
    @Override
    public byte[] decrypt(SSLEngine engine, byte[] input) throws SignatureException {
        long ctx = LibCrypto.EVP_PKEY_CTX_new(pkey, 0);
        if (ctx == 0) {
            throw failed("decrypt");
        }
        try {
            byte[] out = new byte[size];
            long[] length = {size};
            if (LibCrypto.EVP_PKEY_decrypt_init(ctx) != 1
                    || LibCrypto.EVP_PKEY_CTX_set_rsa_padding(ctx, LibCrypto.RSA_NO_PADDING) != 1
                    || LibCrypto.EVP_PKEY_decrypt(ctx, out, length, input, input.length) != 1) {
                throw failed("decrypt");
            }
            return length[0] == size ? out : Arrays.copyOf(out, (int) length[0]);
        } finally {
            LibCrypto.EVP_PKEY_CTX_free(ctx);
        }
    }

    /** The handshake fails (BoringSSL sends internal_error); the thread's OpenSSL errors are dropped. */
    private static SignatureException failed(String what) {
        LibCrypto.ERR_clear_error();
        return new SignatureException("OpenSSL could not " + what + " with the RSA key");
    }
}
