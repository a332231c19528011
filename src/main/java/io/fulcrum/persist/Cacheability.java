package io.fulcrum.persist;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;

/**
 * Whether a shared cache could keep a response, as HAProxy 2.6 judges it before {@code cookie ... nocache} marks
 * it private: a GET or HEAD request, a status cacheable by default (RFC 7231 6.1), no {@code Pragma: no-cache},
 * no Cache-Control value forbidding it, and freshness information or a validator (RFC 7234 3).
 */
final class Cacheability {
    private Cacheability() {
    }

    private static final AsciiString CACHE_CONTROL = AsciiString.cached("cache-control");

    static void of(PersistTxn t, ResponseHead head) {
        switch (head.status()) {
            case 200, 203, 204, 206, 300, 301, 404, 405, 410, 414, 501 -> {
            }
            default -> {
                t.cacheable = false;
                t.cacheCookies = false;
            }
        }
        HttpHeaders h = head.headers();
        AsciiString pragma = h.get("pragma");
        if (pragma != null && pragma.toString().trim().equalsIgnoreCase("no-cache")) {
            t.cacheable = false;
            t.cacheCookies = false;
            return;
        }
        boolean fresh = false;
        for (int i = h.indexOf(CACHE_CONTROL, 0); i >= 0; i = h.indexOf(CACHE_CONTROL, i + 1)) {
            for (String word : h.value(i).toString().split(",")) {
                String w = word.trim().toLowerCase();
                switch (w) {
                    case "public" -> {
                        t.cacheable = true;
                        t.cacheCookies = true;
                    }
                    case "private", "no-cache", "no-store", "max-age=0", "s-maxage=0" -> {
                        t.cacheable = false;
                        t.cacheCookies = false;
                    }
                    default -> {
                        if (w.startsWith("no-cache=\"set-cookie")) {
                            t.cacheCookies = false;
                        } else if (w.startsWith("max-age") || w.startsWith("s-maxage")) {
                            fresh = true;
                        }
                    }
                }
            }
        }
        if (!fresh && !h.contains("expires") && !h.contains("etag") && !h.contains("last-modified")) {
            t.cacheable = false;
        }
    }
}
