package io.fulcrum.cfg;

/** Argument checks shared by keyword parsers, with HAProxy's wording. */
public final class Args {
    private Args() {
    }

    /** Fails when the line has words past {@code last} (the index of the last accepted word). */
    public static void noMoreThan(ConfigLine line, int last, String keyword) throws ConfigException {
        if (line.has(last + 1)) {
            throw new ConfigException("'" + keyword + "' cannot handle unexpected argument '" + line.arg(last + 1) + "'.");
        }
    }

    /** The word at {@code index}, failing with "'KEYWORD' expects WHAT." when it is missing or empty. */
    public static String required(ConfigLine line, int index, String keyword, String what) throws ConfigException {
        if (line.arg(index).isEmpty()) {
            throw new ConfigException("'" + keyword + "' expects " + what + ".");
        }
        return line.arg(index);
    }

    /**
     * C's atol: the leading decimal number, 0 when there is none ("3x" is 3), saturated as glibc's. HAProxy often keeps
     * it in an int: {@code (int) atol(...)} then wraps as it does (99999999999 is 1215752191).
     */
    public static long atol(String text) {
        int i = 0;
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i++) == '-';
        }
        long n = 0;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
            int d = text.charAt(i++) - '0';
            n = n > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : n * 10 + d;
        }
        return negative ? -n : n;
    }

    /**
     * C's strtol(text, &end, 0) that must read the whole word: decimal, 0x hexadecimal or 0 octal, after optional
     * blanks and sign; saturated. Anything left is an error: "{@code keyword} : unexpected character 'c' in integer
     * value 'text'", as HAProxy words it.
     */
    public static long strtol(String text, String keyword) throws ConfigException {
        int p = 0;
        while (p < text.length() && Character.isWhitespace(text.charAt(p))) {
            p++;
        }
        boolean negative = false;
        if (p < text.length() && (text.charAt(p) == '+' || text.charAt(p) == '-')) {
            negative = text.charAt(p++) == '-';
        }
        int base = 10;
        if (text.startsWith("0", p)) {
            boolean hex = p + 2 < text.length() && (text.charAt(p + 1) | 0x20) == 'x' && Character.digit(text.charAt(p + 2), 16) >= 0;
            base = hex ? 16 : 8;
            p += hex ? 2 : 0;
        }
        int digits = p;
        long n = 0;
        while (p < text.length() && Character.digit(text.charAt(p), base) >= 0) {
            n = Math.min(n * base + Character.digit(text.charAt(p++), base), Long.MAX_VALUE / 16);
        }
        int end = p == digits ? 0 : p; // no digits: nothing was read
        if (end < text.length()) {
            throw new ConfigException(keyword + " : unexpected character '" + text.charAt(end) + "' in integer value '" + text + "'");
        }
        return negative ? -n : n;
    }

    /**
     * The error of an HAProxy 2.6 keyword parser that prints its own alert and returns no message (the httpclient.*
     * keywords): its alert, then the config parser's "(null)" for the missing one. Throw what it returns.
     */
    public static ConfigException ownAlert(ConfigLine line, String message) {
        if (line.diag() != null) {
            line.diag().parseAlert(line.source(), message);
        }
        return new ConfigException("(null)");
    }
}
