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

    /** C's atol: the leading decimal number, 0 when there is none ("3x" is 3). */
    public static long atol(String text) {
        int i = 0;
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i++) == '-';
        }
        long n = 0;
        while (i < text.length() && Character.isDigit(text.charAt(i)) && n < Integer.MAX_VALUE) {
            n = n * 10 + text.charAt(i++) - '0';
        }
        return negative ? -n : n;
    }
}
