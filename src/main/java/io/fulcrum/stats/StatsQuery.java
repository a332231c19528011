package io.fulcrum.stats;

/**
 * What the part of a stats request after the stats URI asks for, read as HAProxy's http_handle_stats() reads it:
 * options anywhere in it ({@code ;up}, {@code ;no-maint}, {@code ;norefresh}, the format, {@code ;st=CODE}) and
 * {@code scope=NAME} (up to 20 characters, ended by ';', '&' or a space; ignored when it has other characters than
 * letters, digits, '.', ':', '_' and '-').
 *
 * @param status the message asked for, or null
 */
record StatsQuery(boolean hideDown, boolean noMaint, boolean noRefresh, Format format, StatsStatus status, String scope) {
    private static final int SCOPE_MAX = 20;

    enum Format { HTML, CSV, TYPED, JSON, JSON_SCHEMA }

    /** @param refreshing the page has {@code stats refresh}: only then does {@code ;norefresh} mean something */
    static StatsQuery parse(String options, boolean refreshing) {
        Format format = Format.HTML;
        // As HAProxy, each format found overrides the ones tested before it.
        if (options.contains(";csv")) {
            format = Format.CSV;
        }
        if (options.contains(";typed")) {
            format = Format.TYPED;
        }
        if (options.contains(";json")) {
            format = Format.JSON;
        }
        if (options.contains(";json-schema")) {
            format = Format.JSON_SCHEMA;
        }
        int st = options.indexOf(";st=");
        StatsStatus status = st >= 0 && options.length() - st >= 8 ? StatsStatus.of(options.substring(st + 4)) : null;
        return new StatsQuery(options.contains(";up"), options.contains(";no-maint"), refreshing && options.contains(";norefresh"),
                format, status, scope(options));
    }

    private static String scope(String options) {
        int at = options.indexOf("scope=");
        if (at < 0 || options.length() - at < 8) {
            return "";
        }
        int start = at + 6;
        int end = start;
        while (end < options.length() && ";& ".indexOf(options.charAt(end)) < 0) {
            end++;
        }
        String s = options.substring(start, Math.min(end, start + SCOPE_MAX));
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c < 128 && Character.isLetterOrDigit(c) || ".:_-".indexOf(c) >= 0)) {
                return "";
            }
        }
        return s;
    }
}
