package io.fulcrum.check;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code http-check expect hdr|fhdr name [-m meth] <name> [value [-m meth] <value>]}: whether the answer has a
 * header whose name matches (names compare without case) and, when a value pattern is given, one of whose values
 * matches it ({@code hdr} splits values on commas, {@code fhdr} takes them whole). {@code name-lf} and
 * {@code value-lf} make the patterns with log-format strings.
 *
 * @param value null when only the header's presence is asked
 */
record HeaderMatch(Match name, Match value, boolean full) {

    /** A pattern with its method: str, beg, end, sub or reg; {@code lf}, when set, makes the text at each check. */
    record Match(String method, String text, Pattern regex, CheckRule.Text lf) {
        boolean test(String s, boolean ignoreCase, CheckContext c) {
            String p = lf == null ? text : lf.of(c);
            String t = ignoreCase ? p.toLowerCase(Locale.ROOT) : p;
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

    boolean test(List<String[]> headers, CheckContext c) {
        for (String[] h : headers) {
            if (!name.test(h[0], true, c)) {
                continue;
            }
            if (value == null) {
                return true;
            }
            for (String v : full ? new String[]{h[1]} : h[1].split(",")) {
                if (value.test(v.trim(), false, c)) {
                    return true;
                }
            }
        }
        return false;
    }
}
