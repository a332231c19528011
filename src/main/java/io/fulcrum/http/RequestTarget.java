package io.fulcrum.http;

import io.netty.util.AsciiString;

/** Where the parts of a request target are, as HAProxy's URL fetches cut it. */
public final class RequestTarget {
    private RequestTarget() {
    }

    /**
     * Where the path starts: at 0 in origin form ("/a?b"), after the authority in absolute form
     * ("http://h/a?b"); -1 when there is no path ("*", an authority, "http://h").
     */
    public static int pathStart(AsciiString uri) {
        int n = uri.length();
        if (n > 0 && uri.charAt(0) == '/') {
            return 0;
        }
        int i = 0;
        while (i < n && isSchemeChar(uri.charAt(i))) {
            i++;
        }
        if (i == 0 || i + 2 >= n || uri.charAt(i) != ':' || uri.charAt(i + 1) != '/' || uri.charAt(i + 2) != '/') {
            return -1;
        }
        int slash = uri.indexOf('/', i + 3);
        return slash;
    }

    /**
     * The authority that HAProxy's set-uri and replace-uri put in the Host field: null for an empty target, an origin
     * form or '*'; else from after {@code scheme://} (the scheme starting with a letter; without one, from the start)
     * to the first '/', without the userinfo up to the last '@' (possibly empty: the rewrite then fails).
     */
    public static String authority(String uri) {
        if (uri.isEmpty() || uri.charAt(0) == '/' || uri.charAt(0) == '*') {
            return null;
        }
        int i = 0;
        while (i < uri.length() && isSchemeChar(uri.charAt(i))) {
            i++;
        }
        char first = (char) (uri.charAt(0) | 0x20);
        int start = first >= 'a' && first <= 'z' && uri.startsWith("://", i) ? i + 3 : 0;
        int end = uri.indexOf('/', start);
        String authority = uri.substring(start, end < 0 ? uri.length() : end);
        return authority.substring(authority.lastIndexOf('@') + 1);
    }

    /** Where the path that starts at {@code from} ends: at the '?' of a query, or the end. */
    static int pathEnd(AsciiString uri, int from) {
        int q = uri.indexOf('?', from);
        return q < 0 ? uri.length() : q;
    }

    private static boolean isSchemeChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.';
    }

    /**
     * The first parameter named {@code name} (any parameter with a value when the name is empty) in
     * {@code b[from, to)}: parameters are separated by '&amp;', ';' or {@code delimiter}, and are
     * {@code name=value}. Returns the value's start in the upper 32 bits and its end in the lower ones, or -1.
     */
    static long param(byte[] b, int from, int to, String name, int delimiter) {
        int p = from;
        while (p <= to) {
            int end = p;
            while (end < to && !isParamDelimiter(b[end], delimiter)) {
                end++;
            }
            int eq = name.isEmpty() ? indexOf(b, p, end, '=') : p + name.length();
            if (eq >= 0 && eq < end && b[eq] == '=' && startsWith(b, p, name)) {
                return (long) (eq + 1) << 32 | end;
            }
            p = end + 1;
        }
        return -1;
    }

    private static boolean isParamDelimiter(byte c, int delimiter) {
        return c == '&' || c == ';' || c == delimiter;
    }

    private static int indexOf(byte[] b, int from, int to, char c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsWith(byte[] b, int from, String s) {
        for (int k = 0; k < s.length(); k++) {
            if (b[from + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
