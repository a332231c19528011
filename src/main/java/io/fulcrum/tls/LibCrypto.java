package io.fulcrum.tls;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The system's OpenSSL 3 libcrypto, bound through JNA's direct mapping (pointers as {@code long}s, out-parameters as
 * one-element arrays): the RSA private-key operations of TLS handshakes ({@link RsaKeyMethod}). BoringSSL, which
 * Netty's engine carries, signs with RSA 2048 in about 0.6 ms on x86-64 CPUs with AVX-512; OpenSSL 3 in half that
 * (its IFMA code), and a full RSA handshake is mostly that signature. Everything else stays BoringSSL's.
 * {@link #available()} is false where the library is missing or is not OpenSSL 3 (then BoringSSL signs).
 */
final class LibCrypto {
    /** {@code RSA_NO_PADDING}: a raw RSA operation, what BoringSSL's decrypt callback asks for. */
    static final int RSA_NO_PADDING = 3;
    /** {@code RSA_PKCS1_PADDING}. */
    static final int RSA_PKCS1_PADDING = 1;
    /** {@code RSA_PKCS1_PSS_PADDING}. */
    static final int RSA_PKCS1_PSS_PADDING = 6;
    /** {@code RSA_PSS_SALTLEN_DIGEST}: a salt as long as the digest, as TLS wants. */
    static final int RSA_PSS_SALTLEN_DIGEST = -1;

    /** {@code OPENSSL_INIT_NO_ATEXIT}. */
    private static final long OPENSSL_INIT_NO_ATEXIT = 0x00080000L;

    private static final Throwable UNAVAILABLE = load();

    private LibCrypto() {
    }

    private static Throwable load() {
        try {
            if (Native.POINTER_SIZE != 8 || !System.getProperty("os.name", "").startsWith("Linux")) {
                return new UnsupportedOperationException("not a 64-bit Linux");
            }
            Native.register(LibCrypto.class, NativeLibrary.getInstance("libcrypto.so.3"));
            if (OpenSSL_version_num() >>> 28 != 3) {
                return new UnsupportedOperationException("not OpenSSL 3");
            }
            // Before anything starts it: no clean-up at exit, when a loop may still be signing.
            boolean started = OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, 0) == 1;
            return started ? null : new IllegalStateException("OpenSSL did not start");
        } catch (LinkageError | RuntimeException e) {
            return e;
        }
    }

    /** True when the functions below are bound. */
    static boolean available() {
        return UNAVAILABLE == null;
    }

    static native long OpenSSL_version_num();

    static native int OPENSSL_init_crypto(long options, long settings);

    /** A key from its DER form (PKCS#8); {@code pp} holds the address of the bytes. */
    static native long d2i_AutoPrivateKey(long a, long[] pp, long length);

    static native void EVP_PKEY_free(long pkey);

    static native long EVP_sha1();

    static native long EVP_sha256();

    static native long EVP_sha384();

    static native long EVP_sha512();

    static native long EVP_md5_sha1();

    static native long EVP_MD_CTX_new();

    static native void EVP_MD_CTX_free(long ctx);

    /** {@code pctx[0]} receives the key context the digest context owns. */
    static native int EVP_DigestSignInit(long ctx, long[] pctx, long md, long engine, long pkey);

    static native int EVP_DigestSign(long ctx, byte[] sig, long[] siglen, byte[] tbs, long tbslen);

    static native long EVP_PKEY_CTX_new(long pkey, long engine);

    static native void EVP_PKEY_CTX_free(long ctx);

    static native int EVP_PKEY_CTX_set_rsa_padding(long ctx, int padding);

    static native int EVP_PKEY_CTX_set_rsa_pss_saltlen(long ctx, int len);

    static native int EVP_PKEY_decrypt_init(long ctx);

    static native int EVP_PKEY_decrypt(long ctx, byte[] out, long[] outlen, byte[] in, long inlen);

    /** Empties the calling thread's error queue (libcrypto's own, not BoringSSL's). */
    static native void ERR_clear_error();
}
