package io.fulcrum.check;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code http-check expect hdr|fhdr name [-m meth] <name> [value [-m meth] <value>]}: whether the answer has a
 * header whose name matches (names compare without case) and, when a value pattern is given, one of whose values
 * matches it ({@code hdr} splits values on commas, {@code fhdr} takes them whole).
 *
 * @param value null when only the header's presence is asked
 */
record HeaderMatch(Match name, Match value, boolean full) {

    /** A pattern with its method: str, beg, end, sub or reg. */
    record Match(String method, String text, Pattern regex) {
        boolean test(String s, boolean ignoreCase) {
            String t = ignoreCase ? text.toLowerCase(Locale.ROOT) : text;
            String v = ignoreCase ? s.toLowerCase(Locale.ROOT) : s;
            return switch (method) {
                case "beg" -> v.startsWith(t);
                case "end" -> v.endsWith(t);
                case "sub" -> v.contains(t);
                case "reg" -> regex.matcher(s).find();
                default -> v.equals(t);
            };
        }
    }

    boolean test(List<String[]> headers) {
        for (String[] h : headers) {
            if (!name.test(h[0], true)) {
                continue;
            }
            if (value == null) {
                return true;
            }
            for (String v : full ? new String[]{h[1]} : h[1].split(",")) {
                if (value.test(v.trim(), false)) {
                    return true;
                }
            }
        }
        return false;
    }
}
