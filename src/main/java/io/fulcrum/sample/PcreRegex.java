package io.fulcrum.sample;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Regexes written for HAProxy's PCRE2 (ACLs, maps, the rules' regexes, regsub), compiled by Java's engine: only '\n' ends a line (PCRE's default
 * newline), POSIX classes ("[[:digit:]]", "[[:^alpha:]]") become Java's, and inside a bracket
 * expression '[' and "&&" are literal, as in PCRE, rather than Java's nested classes and intersections.
 */
public final class PcreRegex {
    /** PCRE's POSIX class names and their Java escapes (ASCII only in both, as HAProxy does not use UCP). */
    private static final Map<String, String> POSIX = Map.ofEntries(Map.entry("alnum", "\\p{Alnum}"), Map.entry("alpha", "\\p{Alpha}"),
            Map.entry("ascii", "\\p{ASCII}"), Map.entry("blank", "\\p{Blank}"), Map.entry("cntrl", "\\p{Cntrl}"),
            Map.entry("digit", "\\p{Digit}"), Map.entry("graph", "\\p{Graph}"), Map.entry("lower", "\\p{Lower}"),
            Map.entry("print", "\\p{Print}"), Map.entry("punct", "\\p{Punct}"), Map.entry("space", "\\p{Space}"),
            Map.entry("upper", "\\p{Upper}"), Map.entry("word", "\\w"), Map.entry("xdigit", "\\p{XDigit}"));

    private PcreRegex() {
    }

    /**
     * Compiles {@code regex}; when it is invalid, the exception has PCRE2's reason and offset when {@link PcreErrors}
     * finds them (also for what Java's engine would accept but PCRE2 refuses: "[[:foo:]]", "\\8"), else Java's.
     */
    public static Pattern compile(String regex, boolean ignoreCase) throws PatternSyntaxException {
        PcreErrors.Error e = PcreErrors.of(regex);
        if (e != null) {
            throw new PatternSyntaxException(e.message(), regex, e.offset());
        }
        return Pattern.compile(translate(regex), Pattern.UNIX_LINES | (ignoreCase ? Pattern.CASE_INSENSITIVE : 0));
    }

    /** " (error=..., erroffset=N)": why {@code regex} is invalid, as HAProxy says it after "regex '...' is invalid". */
    public static String reason(PatternSyntaxException e) {
        String regex = e.getPattern() == null ? "" : e.getPattern();
        return " (error=" + e.getDescription() + ", erroffset=" + Math.max(0, Math.min(e.getIndex(), regex.length())) + ")";
    }

    /** The regex in Java's syntax; what Java would read differently inside brackets is escaped. */
    static String translate(String re) {
        StringBuilder out = new StringBuilder(re.length() + 8);
        boolean inClass = false;
        for (int i = 0; i < re.length(); i++) {
            char c = re.charAt(i);
            if (c == '\\' && i + 1 < re.length()) {
                if (re.charAt(i + 1) == 'Q') {
                    int end = re.indexOf("\\E", i + 2);
                    end = end < 0 ? re.length() : end + 2;
                    out.append(re, i, end);
                    i = end - 1;
                } else if (PcreErrors.bracedEscape(re, i) && re.indexOf('}', i + 3) > 0) {
                    int end = re.indexOf('}', i + 3) + 1;
                    out.append(re, i, end);
                    i = end - 1;
                } else {
                    out.append(c).append(re.charAt(++i));
                }
            } else if (!inClass && c == '{' && PcreErrors.quantifierEnd(re, i) < 0) {
                out.append("\\{"); // PCRE2 reads a '{' that starts no quantifier ("a{2", "{x}") as itself
            } else if (!inClass) {
                out.append(c);
                if (c == '[') {
                    inClass = true;
                    // A ']' right after "[" or "[^" is a member, not the end.
                    if (i + 1 < re.length() && re.charAt(i + 1) == '^') {
                        out.append(re.charAt(++i));
                    }
                    if (i + 1 < re.length() && re.charAt(i + 1) == ']') {
                        out.append("\\]");
                        i++;
                    }
                }
            } else if (c == ']') {
                out.append(c);
                inClass = false;
            } else if (c == '[') {
                int end = re.indexOf(":]", i + 2);
                String name = i + 1 < re.length() && re.charAt(i + 1) == ':' && end > 0 ? re.substring(i + 2, end) : null;
                boolean negated = name != null && name.startsWith("^");
                String java = name == null ? null : POSIX.get(negated ? name.substring(1) : name);
                if (java != null) {
                    // "\p{X}" negates as "\P{X}", "\w" as "\W".
                    out.append('\\').append(negated ? Character.toUpperCase(java.charAt(1)) : java.charAt(1)).append(java, 2, java.length());
                    i = end + 1;
                } else {
                    out.append("\\[");
                }
            } else if (c == '&') {
                out.append("\\&");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
