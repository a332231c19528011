package io.fulcrum.cache;

import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The primary key of a cached object: as HAProxy's, the SHA-1 of the request's absolute URI, or of "https://", the
 * first Host field and the URI when the URI has no authority (so that HTTP/1 and HTTP/2 requests share objects).
 */
final class CacheKey {
    private static final FastThreadLocal<MessageDigest> SHA1 = new FastThreadLocal<>() {
        @Override
        protected MessageDigest initialValue() throws NoSuchAlgorithmException {
            return MessageDigest.getInstance("SHA-1");
        }
    };
    private static final byte[] HTTPS = "https://".getBytes(StandardCharsets.US_ASCII);

    private final byte[] hash;
    private final int hashCode;

    private CacheKey(byte[] hash) {
        this.hash = hash;
        this.hashCode = Arrays.hashCode(hash);
    }

    /** The key of {@code request}, or null when it has none (an origin-form URI without a Host field). */
    static CacheKey of(RequestHead request) {
        AsciiString uri = request.uri();
        if (uri.isEmpty()) {
            return null;
        }
        MessageDigest md = SHA1.get();
        md.reset();
        if (!hasAuthority(uri)) {
            AsciiString host = request.headers().get("host");
            if (host == null) {
                return null;
            }
            md.update(HTTPS);
            md.update(host.array(), host.arrayOffset(), host.length());
        }
        md.update(uri.array(), uri.arrayOffset(), uri.length());
        return new CacheKey(md.digest());
    }

    private static boolean hasAuthority(AsciiString uri) {
        return uri.charAt(0) != '/' && uri.charAt(0) != '*' && uri.indexOf("://", 0) > 0;
    }

    /** The first 32 bits of the hash, as {@code show cache} prints them (HAProxy reads them in the host's order). */
    long first32() {
        return (hash[0] & 0xffL) | (hash[1] & 0xffL) << 8 | (hash[2] & 0xffL) << 16 | (hash[3] & 0xffL) << 24;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CacheKey k && Arrays.equals(hash, k.hash);
    }

    @Override
    public int hashCode() {
        return hashCode;
    }
}
