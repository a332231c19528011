package io.fulcrum.http;

import io.netty.util.AsciiString;

/**
 * {@code option checkcache}: whether a response a shared cache may keep carries a cookie (which that cache would
 * then hand to other users), judged on the response as the server sent it. The rules are HAProxy 2.6's as it
 * applies them (checked against it), which differ from its documentation in one point: a response is cacheable
 * only with freshness information (Cache-Control max-age/s-maxage, Expires) or a validator (ETag,
 * Last-Modified), so a lone Set-Cookie or "public" passes.
 */
public final class CacheableCookie {
    private CacheableCookie() {
    }

    /** True when the response must be blocked. */
    public static boolean leaks(RequestHead request, ResponseHead response) {
        HttpHeaders h = response.headers();
        if (!h.contains("set-cookie") && !h.contains("set-cookie2")) {
            return false;
        }
        // Safe methods and the statuses cacheable by default (RFC 7231 4.2.3, 6.1) make a response cacheable,
        // cookie included; Cache-Control may change both.
        return cacheable(h, safe(request.method()) && cacheableStatus(response.status()));
    }

    /** True when a shared cache may keep a response with its cookies ({@link #judge} with both allowed alike). */
    public static boolean cacheable(HttpHeaders h, boolean cacheable) {
        Verdict v = judge(h, cacheable, cacheable);
        return v.cacheable() && v.cookies();
    }

    /** HAProxy's TX_CACHEABLE (a shared cache may keep the response) and TX_CACHE_COOK (its cookies too). */
    public record Verdict(boolean cacheable, boolean cookies) {
    }

    /**
     * What a shared cache may keep of a response, as HAProxy judges it from what the method and the status allow
     * ({@code cacheable}, {@code cookies}): nothing with "Pragma: no-cache"; Cache-Control "public" allows both,
     * private, no-cache, no-store, max-age=0 and s-maxage=0 forbid both, no-cache="set-cookie" forbids the cookies;
     * and the response only with freshness information (max-age, s-maxage, Expires) or a validator (ETag,
     * Last-Modified).
     */
    public static Verdict judge(HttpHeaders h, boolean cacheable, boolean cookies) {
        boolean cookieCacheable = cookies;
        for (int i = h.indexOf("pragma", 0); i >= 0; i = h.indexOf("pragma", i + 1)) {
            if (HeaderValues.trim(h.value(i).toString()).equalsIgnoreCase("no-cache")) { // the whole value, as HAProxy
                return new Verdict(false, false);
            }
        }
        boolean fresh = false;
        for (int i = h.indexOf("cache-control", 0); i >= 0; i = h.indexOf("cache-control", i + 1)) {
            String value = h.value(i).toString();
            for (HeaderValues.Word w : HeaderValues.words(value)) {
                String d = w.text(value);
                if (d.equalsIgnoreCase("public")) {
                    cacheable = cookieCacheable = true;
                } else if (d.equalsIgnoreCase("private") || d.equalsIgnoreCase("no-cache") || d.equalsIgnoreCase("no-store")
                        || d.equalsIgnoreCase("max-age=0") || d.equalsIgnoreCase("s-maxage=0")) {
                    cacheable = cookieCacheable = false;
                } else if (startsWith(d, "no-cache=\"set-cookie")) {
                    cookieCacheable = false;
                } else if (startsWith(d, "s-maxage") || startsWith(d, "max-age")) {
                    fresh = true;
                }
            }
        }
        if (!fresh && !h.contains("expires") && !h.contains("etag") && !h.contains("last-modified")) {
            cacheable = false;
        }
        return new Verdict(cacheable, cookieCacheable);
    }

    private static boolean safe(AsciiString method) {
        return method.contentEquals("GET") || method.contentEquals("HEAD") || method.contentEquals("OPTIONS") || method.contentEquals("TRACE");
    }

    /** The statuses cacheable by default (RFC 7231 6.1). */
    public static boolean cacheableStatus(int status) {
        return switch (status) {
            case 200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501 -> true;
            default -> false;
        };
    }

    private static boolean startsWith(String s, String prefix) {
        return s.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}
