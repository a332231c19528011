package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;

/**
 * {@code sample <ranges>:<size>}: of each run of {@code size} consecutive messages, a target sends only
 * those whose position (1 to size) is in one of the ranges.
 */
record LogSampling(int[] lows, int[] highs, int size) {

    static LogSampling parse(String text) throws ConfigException {
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new ConfigException("Missing sample size");
        }
        String ranges = text.substring(0, colon);
        String sizeText = text.substring(colon + 1);
        if (ranges.isEmpty()) {
            throw new ConfigException("no sampling ranges given");
        }
        String[] parts = ranges.split(",", -1);
        int[] lows = new int[parts.length];
        int[] highs = new int[parts.length];
        int max = 0;
        for (int i = 0; i < parts.length; i++) {
            String r = parts[i];
            int dash = r.indexOf('-');
            lows[i] = positive(dash < 0 ? r : r.substring(0, dash));
            highs[i] = dash < 0 ? lows[i] : positive(r.substring(dash + 1));
            if (lows[i] <= 0 || highs[i] <= 0 || dash >= 0 && highs[i] <= lows[i]) {
                throw new ConfigException("wrong sample range '" + r + "'");
            }
            max = Math.max(max, highs[i]);
        }
        int size = positive(sizeText);
        if (size <= 0) {
            throw new ConfigException("wrong sample size '" + sizeText + "' for sample range '" + ranges + "'");
        }
        if (size < max) {
            throw new ConfigException("sample size " + size + " should be greater or equal to " + max
                    + " the maximum of the high ranges limits");
        }
        return new LogSampling(lows, highs, size);
    }

    /** The number in {@code s}, or -1 when it is not a positive number. */
    private static int positive(String s) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(s);
    }

    /** True when the message numbered {@code n} (from 0) is to be sent. */
    boolean takes(long n) {
        int position = (int) (n % size) + 1;
        for (int i = 0; i < lows.length; i++) {
            if (position >= lows[i] && position <= highs[i]) {
                return true;
            }
        }
        return false;
    }
}
