package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;

/**
 * An integer pattern: a value or an inclusive range, possibly open ("10:", ":99"). As in HAProxy, whose integer
 * matching "only applies to positive values", '-' separates a range's bounds as ':' does: "1-5", "5-", and "-5"
 * (after "--" or an operator) is ":5". Only a bound after the separator can be negative (":-1", which is what
 * "lt 0" becomes).
 */
record IntRange(long min, long max) {

    boolean contains(long v) {
        return v >= min && v <= max;
    }

    /**
     * The pattern an operator (eq, ge, gt, le, lt) written before a value on an ACL line stands for, as
     * HAProxy rewrites it: "gt 5" is "6:", "lt 3" is ":2". Ranges and invalid numbers stay as written.
     */
    static String withOperator(String text, String operator) {
        if (operator == null || separator(text) >= 0) {
            return text;
        }
        long v;
        try {
            v = number(text);
        } catch (ConfigException e) {
            return text;
        }
        return switch (operator) {
            case "ge" -> v + ":";
            case "gt" -> (v + 1) + ":";
            case "le" -> ":" + v;
            case "lt" -> ":" + (v - 1);
            default -> text;
        };
    }

    /** Parses "N", "N:M", ":M", "N:" (or with '-'), as HAProxy's integer patterns. */
    static IntRange parse(String text) throws ConfigException {
        int colon = separator(text);
        if (colon < 0) {
            long v = number(text);
            return new IntRange(v, v);
        }
        try {
            if (text.length() == 1) {
                throw new ConfigException(""); // HAProxy wants at least one bound
            }
            long lo = colon == 0 ? Long.MIN_VALUE : number(text.substring(0, colon));
            long hi = colon == text.length() - 1 ? Long.MAX_VALUE : number(text.substring(colon + 1));
            if (lo > hi) {
                throw new ConfigException("");
            }
            return new IntRange(lo, hi);
        } catch (ConfigException e) {
            throw new ConfigException("'" + text + "' is not a valid number range");
        }
    }

    /** The first ':' or '-', or -1. */
    private static int separator(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ':' || text.charAt(i) == '-') {
                return i;
            }
        }
        return -1;
    }

    /**
     * A decimal integer as HAProxy's strl2llrc() reads it: an optional '-' (a lone "-" is 0), never '+'. Only a
     * range's second bound can hold the '-': anywhere else, it is the separator.
     */
    private static long number(String text) throws ConfigException {
        if (text.equals("-")) {
            return 0;
        }
        try {
            if (text.startsWith("+")) {
                throw new NumberFormatException();
            }
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException("'" + text + "' is not a number");
        }
    }

    static boolean isOperator(String word) {
        return switch (word) {
            case "eq", "ge", "gt", "le", "lt" -> true;
            default -> false;
        };
    }
}
