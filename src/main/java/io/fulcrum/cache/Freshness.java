package io.fulcrum.cache;

import io.fulcrum.http.CacheableCookie;
import io.fulcrum.http.HeaderValues;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;

/**
 * What HAProxy 2.6 reads of Cache-Control, Pragma and Expires (its http_check_request_for_cacheability(),
 * http_check_response_for_cacheability() and http_calc_maxage()), checked against it: each comma-separated value of
 * Cache-Control is matched as a word or a prefix, as it does.
 */
final class Freshness {
    private Freshness() {
    }

    /**
     * A request a cache must not answer: not a GET or HEAD, older than HTTP/1.1, with Authorization, with a
     * Cache-Control max-age, no-cache, max-stale or min-fresh, or with "Pragma: no-cache" and no Cache-Control.
     */
    static boolean bypasses(RequestHead request) {
        if (!(request.method().contentEquals("GET") || request.isHead()) || request.version() < 11
                || request.headers().contains("authorization")) {
            return true;
        }
        boolean cacheControl = false;
        for (String v : HeaderValues.all(request.headers(), "cache-control")) {
            cacheControl = true;
            if (startsWith(v, "max-age") || startsWith(v, "no-cache") || startsWith(v, "max-stale") || startsWith(v, "min-fresh")) {
                return true;
            }
        }
        return !cacheControl && pragmaNoCache(request.headers());
    }

    /** A request whose response must not be stored: with Authorization, or Cache-Control no-store. */
    static boolean forbidsStore(RequestHead request) {
        if (request.headers().contains("authorization")) {
            return true;
        }
        for (String v : HeaderValues.all(request.headers(), "cache-control")) {
            if (startsWith(v, "no-store")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a 200 response may be stored: no "Pragma: no-cache", no Cache-Control private, no-cache, no-store,
     * max-age=0, s-maxage=0 nor no-cache="set-cookie" (unless a later "public" allows it again), and freshness
     * information (max-age, s-maxage, Expires) or a validator (ETag, Last-Modified), as RFC 7234 3 suggests.
     *
     * @param allowed what the request left: false when it forbids storing (which "public" overrides, as in HAProxy)
     */
    static boolean storable(ResponseHead response, boolean allowed) {
        return CacheableCookie.cacheable(response.headers(), allowed);
    }

    /**
     * How long a response stays fresh, in seconds: s-maxage, else max-age, else Expires (a date that cannot be read
     * is in the past), else none ({@code -1}); a negative or unreadable directive gives {@code -2} (not stored).
     */
    static long lifetime(HttpHeaders h, long now) {
        long smaxage = -1;
        long maxage = -1;
        for (String v : HeaderValues.all(h, "cache-control")) {
            long s = directive(v, "s-maxage");
            long m = directive(v, "max-age");
            if (s == -2 || m == -2) {
                return -2;
            }
            smaxage = s >= 0 ? s : smaxage;
            maxage = m >= 0 ? m : maxage;
        }
        if (smaxage > 0) {
            return smaxage;
        }
        if (maxage > 0) {
            return maxage;
        }
        if (smaxage < 0 && maxage < 0) {
            int i = h.indexOf("expires", 0);
            if (i >= 0) {
                long expires = HttpDate.parse(h.value(i));
                return expires == Long.MIN_VALUE ? 0 : Math.max(0, expires - now);
            }
        }
        return -1;
    }

    /** An Age field's value, at most 2^31 (as HAProxy), or -1 when it is not a number. */
    static long age(CharSequence value) {
        String v = value.toString();
        if (v.isEmpty() || v.length() > 18 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Math.min(Long.parseLong(v), 2147483648L);
    }

    /** The value of {@code name=<n>} (quotes allowed), -1 when {@code v} is another directive, -2 when it is not a number. */
    private static long directive(String v, String name) {
        if (!startsWith(v, name) || v.length() == name.length() || v.charAt(name.length()) != '=') {
            return -1;
        }
        String n = v.substring(name.length() + 1);
        if (n.startsWith("\"")) {
            n = n.substring(1);
        }
        int end = 0;
        while (end < n.length() && end < 18 && Character.isDigit(n.charAt(end))) {
            end++;
        }
        return end == 0 ? -2 : Long.parseLong(n, 0, end, 10);
    }

    private static boolean pragmaNoCache(HttpHeaders h) {
        int i = h.indexOf("pragma", 0);
        return i >= 0 && HeaderValues.trim(h.value(i).toString()).equalsIgnoreCase("no-cache");
    }

    private static boolean startsWith(String s, String prefix) {
        return s.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
