package io.fulcrum.rules;

/**
 * The parts of a request URI the rewriting actions work on: what comes before the path (scheme and
 * authority of an absolute URI), the path, and the query after the first '?'.
 */
record Uri(String prefix, String path, String query) {

    static Uri of(CharSequence uri) {
        String u = uri.toString();
        int start = 0;
        int scheme = u.indexOf("://");
        if (!u.startsWith("/") && scheme > 0) {
            int slash = u.indexOf('/', scheme + 3);
            int q = u.indexOf('?', scheme + 3);
            start = slash < 0 || q >= 0 && q < slash ? (q < 0 ? u.length() : q) : slash;
        }
        int q = u.indexOf('?', start);
        return q < 0 ? new Uri(u.substring(0, start), u.substring(start), null)
                : new Uri(u.substring(0, start), u.substring(start, q), u.substring(q + 1));
    }

    /** The path and the query with its '?'. */
    String pathq() {
        return query == null ? path : path + "?" + query;
    }

    @Override
    public String toString() {
        return prefix + pathq();
    }
}
