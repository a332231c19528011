package io.fulcrum.http;

import io.netty.util.AsciiString;

/**
 * {@code monitor-uri}: requests for this URI are answered by the proxy itself (200, the proxy's page for it),
 * before any rule, and never forwarded. A URI starting with '/' is compared with the request's path, so that
 * an absolute-form target matches too; any other with the whole target. The path is what follows the authority
 * of an absolute-form target, query string included (as HAProxy takes it), or an origin-form target as it is.
 */
public final class MonitorUri {
    private MonitorUri() {
    }

    /** Whether {@code request} is for {@code uri} (null: no monitor URI, nothing matches). */
    public static boolean matches(String uri, RequestHead request) {
        if (uri == null) {
            return false;
        }
        AsciiString target = request.uri();
        return uri.startsWith("/") ? path(target).contentEquals(uri) : target.contentEquals(uri);
    }

    /** The path of a target, or "" when it has none (asterisk form, authority form, no '/' after the authority). */
    static AsciiString path(AsciiString target) {
        if (target.isEmpty() || target.byteAt(0) == '/') {
            return target;
        }
        int scheme = target.indexOf("://", 0);
        if (scheme <= 0) {
            return AsciiString.EMPTY_STRING;
        }
        int slash = target.indexOf('/', scheme + 3);
        return slash < 0 ? AsciiString.EMPTY_STRING : target.subSequence(slash, target.length(), false);
    }
}
