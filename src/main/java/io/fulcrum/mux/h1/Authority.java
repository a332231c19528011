package io.fulcrum.mux.h1;

/** RFC 3986 authorities ({@code host[:port]}) in the bytes of a head: the Host field and request targets. */
final class Authority {
    private Authority() {
    }

    /**
     * Whether {@code b[from, to)} is {@code host [":" port]} with host an IP literal or a reg-name (possibly
     * empty, as a Host field may be), and port at most 65535; {@code portRequired}: the CONNECT form, with a
     * non-empty host and port.
     */
    static boolean valid(byte[] b, int from, int to, boolean portRequired) {
        int i = hostEnd(b, from, to);
        if (i < 0 || portRequired && i == from) {
            return false;
        }
        if (i == to) {
            return !portRequired;
        }
        if (b[i] != ':' || to - i - 1 > 5 || portRequired && i + 1 == to) {
            return false;
        }
        int port = 0;
        for (int p = i + 1; p < to; p++) {
            if (b[p] < '0' || b[p] > '9') {
                return false;
            }
            port = port * 10 + b[p] - '0';
        }
        return port <= 65535;
    }

    /** Where the host part of {@code b[from, to)} ends, or -1 if it is not a host. */
    private static int hostEnd(byte[] b, int from, int to) {
        int i = from;
        if (i < to && b[i] == '[') {
            for (i++; i < to && (Chars.hex(b[i]) >= 0 || b[i] == ':' || b[i] == '.'); i++) {
                // IPv6 address
            }
            return i < to && b[i] == ']' ? i + 1 : -1;
        }
        while (i < to && Chars.is(b[i], Chars.REG_NAME)) {
            i++;
        }
        return i;
    }

    /** The ':' of {@code scheme "://"} starting the absolute target {@code b[from, to)}, or -1. */
    static int schemeEnd(byte[] b, int from, int to) {
        if (from == to || !alpha(b[from])) {
            return -1;
        }
        int i = from + 1;
        while (i < to && (alpha(b[i]) || b[i] >= '0' && b[i] <= '9' || b[i] == '+' || b[i] == '-' || b[i] == '.')) {
            i++;
        }
        return i + 3 <= to && b[i] == ':' && b[i + 1] == '/' && b[i + 2] == '/' ? i : -1;
    }

    private static boolean alpha(byte c) {
        int l = c | 0x20;
        return l >= 'a' && l <= 'z';
    }

    /** The default port of the scheme {@code b[from, to)}: 80 for http, 443 for https, else -1. */
    static int defaultPort(byte[] b, int from, int to) {
        if (HeadRules.equalsIgnoreCase(b, from, to, HTTP)) {
            return 80;
        }
        return HeadRules.equalsIgnoreCase(b, from, to, HTTPS) ? 443 : -1;
    }

    private static final byte[] HTTP = {'h', 't', 't', 'p'};
    private static final byte[] HTTPS = {'h', 't', 't', 'p', 's'};

    /** {@code b[from, to)} without its {@code userinfo@}. */
    static int skipUserinfo(byte[] b, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == '@') {
                return i + 1;
            }
        }
        return from;
    }

    /** Whether two valid authorities name the same host (case-insensitively) and port (missing: {@code defaultPort}). */
    static boolean same(byte[] b, int from1, int to1, int from2, int to2, int defaultPort) {
        int h1 = hostEnd(b, from1, to1);
        int h2 = hostEnd(b, from2, to2);
        if (h1 - from1 != h2 - from2) {
            return false;
        }
        for (int k = 0; k < h1 - from1; k++) {
            if (Chars.lower(b[from1 + k]) != Chars.lower(b[from2 + k])) {
                return false;
            }
        }
        return port(b, h1, to1, defaultPort) == port(b, h2, to2, defaultPort);
    }

    /**
     * Where the valid authority {@code b[from, to)} ends once an empty port or {@code defaultPort} is removed
     * ({@code to} when it keeps its port).
     */
    static int withoutDefaultPort(byte[] b, int from, int to, int defaultPort) {
        int h = hostEnd(b, from, to);
        return h < to && (h + 1 == to || port(b, h, to, defaultPort) == defaultPort) ? h : to;
    }

    private static int port(byte[] b, int colon, int to, int defaultPort) {
        if (colon + 1 >= to) {
            return defaultPort;
        }
        int port = 0;
        for (int p = colon + 1; p < to; p++) {
            port = port * 10 + b[p] - '0';
        }
        return port;
    }
}
