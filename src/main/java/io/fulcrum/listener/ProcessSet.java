package io.fulcrum.listener;

import io.fulcrum.cfg.ConfigException;

/**
 * HAProxy 2.6's process sets ({@code bind-process}, a bind line's {@code process}): {@code all | odd | even |
 * number[-[number]]}, where only process 1 exists since 2.5. A valid set changes nothing: every loop serves.
 */
final class ProcessSet {
    private ProcessSet() {
    }

    /** Checks {@code set} as HAProxy's parse_process_number with one process; the message names {@code keyword}. */
    static void check(String set, String keyword) throws ConfigException {
        if (set.equals("all") || set.equals("odd") || set.equals("even")) {
            return;
        }
        if (!set.matches("[0-9]+(-[0-9]*)?|-[0-9]*")) {
            throw new ConfigException(keyword + " : '" + set + "' is not a valid number/range.");
        }
        int dash = set.indexOf('-');
        long low = number(dash < 0 ? set : set.substring(0, dash));
        String high = dash < 0 ? set : set.substring(dash + 1);
        if (low != 1 || !high.isEmpty() && number(high) != 1) {
            throw new ConfigException(keyword + " : '" + set + "' is not a valid number/range. It supports numbers from 1 to 1.");
        }
    }

    /** The digits' value, 0 for none, saturated. */
    private static long number(String digits) {
        return digits.isEmpty() ? 0 : digits.length() > 9 ? Long.MAX_VALUE : Long.parseLong(digits);
    }
}
