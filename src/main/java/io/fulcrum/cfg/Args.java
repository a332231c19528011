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

    /** An integer in [min, max], strictly parsed: the whole word must be a number. */
    public static long integer(String text, String keyword, long min, long max) throws ConfigException {
        long v = Units.integer(text, keyword);
        if (v < min || v > max) {
            throw new ConfigException("'" + keyword + "' value must be between " + min + " and " + max + " (was " + text + ")");
        }
        return v;
    }
}
