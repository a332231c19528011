package io.fulcrum.cache;

import io.fulcrum.http.HeaderValues;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;

import java.util.List;
import java.util.Locale;

/**
 * The secondary key of a response that varies ({@code process-vary on}, RFC 7234 4.1): the request fields its Vary
 * names, normalized as HAProxy 2.6 does. Accept-Encoding becomes a set of known codings (a stored response is
 * served to a client accepting all of its codings); Referer is compared whole. Vary naming any other field makes
 * the response not cacheable.
 */
final class VaryKey {
    static final int ACCEPT_ENCODING = 1;
    static final int REFERER = 2;

    private static final int IDENTITY = 1 << 8;
    private static final int STAR = 1 << 9;
    private static final int OTHER = 1 << 10;
    /** The codings HAProxy knows (the IANA registry), by name, with their bit. */
    private static final String[] CODINGS = {"gzip", "deflate", "br", "compress", "aes128gcm", "exi", "pack200-gzip", "zstd",
        "identity", "x-gzip", "x-compress"};
    private static final int[] BITS = {1, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, IDENTITY, 1, 1 << 3};
    /** More Accept-Encoding values than this make a request HAProxy will not serve from a varying object. */
    private static final int MAX_ACCEPTED = 16;
    static final VaryKey NONE = new VaryKey(0, 0, null);

    /** The fields the key is made of ({@link #ACCEPT_ENCODING}, {@link #REFERER}). */
    final int signature;
    /** The accepted codings (a request's), or the codings of the stored response. */
    private final int encodings;
    private final AsciiString referer;

    private VaryKey(int signature, int encodings, AsciiString referer) {
        this.signature = signature;
        this.encodings = encodings;
        this.referer = referer;
    }

    /** The fields a response's Vary names, or -1 when one is not handled (or empty, or "*"). */
    static int signature(HttpHeaders response) {
        int signature = 0;
        for (String name : HeaderValues.all(response, "vary")) {
            if (name.equalsIgnoreCase("accept-encoding")) {
                signature |= ACCEPT_ENCODING;
            } else if (name.equalsIgnoreCase("referer")) {
                signature |= REFERER;
            } else {
                return -1;
            }
        }
        return signature;
    }

    /** The key of {@code request} over the fields of {@code signature}, or null when it cannot be made. */
    static VaryKey of(RequestHead request, int signature) {
        int encodings = 0;
        if ((signature & ACCEPT_ENCODING) != 0) {
            encodings = accepted(request.headers());
            if (encodings == 0) {
                return null;
            }
        }
        AsciiString referer = (signature & REFERER) != 0 ? request.headers().get("referer") : null;
        return new VaryKey(signature, encodings, referer);
    }

    /** This key over the fields of {@code fields} only (a request's full key, once the response says what it varies on). */
    VaryKey reduced(int fields) {
        return new VaryKey(fields, (fields & ACCEPT_ENCODING) != 0 ? encodings : 0, (fields & REFERER) != 0 ? referer : null);
    }

    /**
     * The key a response is stored under: the request's, with the codings of the response (identity when it has none)
     * in place of those the request accepted; null when the response has a coding HAProxy does not know.
     */
    VaryKey stored(HttpHeaders response) {
        if ((signature & ACCEPT_ENCODING) == 0) {
            return this;
        }
        int coding = 0;
        for (String c : HeaderValues.all(response, "content-encoding")) {
            int bit = coding(c, null);
            if (bit <= 0) {
                return null;
            }
            coding |= bit;
        }
        return new VaryKey(signature, coding == 0 ? IDENTITY : coding, referer);
    }

    /** True when a stored response of this key may answer a request of key {@code request} (made with this signature). */
    boolean serves(VaryKey request) {
        if ((signature & ACCEPT_ENCODING) != 0 && (encodings & request.encodings) != encodings) {
            return false;
        }
        return (signature & REFERER) == 0 || (referer == null ? request.referer == null : referer.equals(request.referer));
    }

    /** True when both keys are of the same variant (a new response replaces the stored one). */
    boolean sameVariant(VaryKey other) {
        return signature == other.signature && encodings == other.encodings
                && (referer == null ? other.referer == null : referer.equals(other.referer));
    }

    /** The key as {@code show cache} prints it: the codings' bits then a hash of the Referer, 4 bytes each. */
    String hex() {
        int r = referer == null ? 0 : referer.hashCode();
        return String.format("%02x%02x%02x%02x%02x%02x%02x%02x", encodings & 0xff, encodings >>> 8 & 0xff, encodings >>> 16 & 0xff,
                encodings >>> 24, r & 0xff, r >>> 8 & 0xff, r >>> 16 & 0xff, r >>> 24);
    }

    /** The codings an Accept-Encoding accepts, as HAProxy's bitmap (identity unless refused); 0 when too many are listed. */
    private static int accepted(HttpHeaders request) {
        List<String> values = HeaderValues.all(request, "accept-encoding");
        if (values.isEmpty()) {
            return ~0; // no Accept-Encoding: any coding (RFC 7231 5.3.4)
        }
        if (values.size() >= MAX_ACCEPTED) {
            return 0;
        }
        int accepted = IDENTITY;
        int refused = 0;
        boolean[] zero = new boolean[1];
        for (String v : values) {
            if (v.isEmpty()) {
                continue;
            }
            int bit = coding(v.toLowerCase(Locale.ROOT), zero);
            if (bit < 0) {
                accepted |= OTHER;
            } else if (zero[0]) {
                refused |= bit;
            } else {
                accepted |= bit;
            }
        }
        if ((accepted & STAR) != 0) {
            accepted = ~0;
        }
        return accepted & ~refused;
    }

    /**
     * The bit of a coding with its optional weight ("gzip;q=0"), as HAProxy's parse_encoding_value(): -1 for an
     * unknown one. {@code zero}, when given, says whether the weight is "q=0".
     */
    private static int coding(String value, boolean[] zero) {
        int bit = -1;
        int end = 0;
        if (value.startsWith("*")) {
            bit = STAR;
            end = 1;
        } else {
            for (int i = 0; i < CODINGS.length && bit < 0; i++) {
                if (value.startsWith(CODINGS[i])) {
                    bit = BITS[i];
                    end = CODINGS[i].length();
                }
            }
        }
        if (bit < 0) {
            return -1;
        }
        String rest = value.substring(end).stripLeading();
        if (!rest.isEmpty() && rest.charAt(0) != ';') {
            return -1;
        }
        if (zero != null) {
            zero[0] = !rest.isEmpty() && rest.substring(1).stripLeading().equals("q=0");
        }
        return bit;
    }
}
