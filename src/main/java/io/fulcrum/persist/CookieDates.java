package io.fulcrum.persist;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;

/**
 * The dates a persistence cookie carries with {@code maxidle}/{@code maxlife} ("SRV|last|first"): UNIX times in
 * 4-second units, 30 bits written as 5 characters of base64, most significant first and without padding
 * (HAProxy's s30tob64() and b64tos30()).
 */
final class CookieDates {
    private CookieDates() {
    }

    private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** Appends the low 30 bits of {@code v} as 5 characters. */
    static void append(StringBuilder out, long v) {
        for (int i = 0; i < 5; i++) {
            out.append(BASE64.charAt((int) (v >> (24 - 6 * i)) & 63));
        }
    }

    /** The 30-bit value of the 5 characters at {@code at}, or -1 when one is not base64. */
    static int decode(CharSequence s, int at) {
        int out = 0;
        for (int i = 0; i < 5; i++) {
            int b = BASE64.indexOf(s.charAt(at + i));
            if (b < 0) {
                return -1;
            }
            out = (out << 6) + b;
        }
        return out;
    }

    /** {@code maxidle}/{@code maxlife}: a time in seconds (suffixes us to d), with HAProxy's parse_time_err() errors. */
    static long seconds(ConfigLine l, int i, String what) throws ConfigException {
        String kw = l.arg(i - 1);
        if (!l.has(i) || l.arg(i).isEmpty()) {
            throw ConfigException.unspaced("'" + kw + "' expects <" + what + "> in seconds as argument.");
        }
        String v = l.arg(i);
        int end = 0;
        long n = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) {
            n = Math.min(n * 10 + v.charAt(end++) - '0', Long.MAX_VALUE / 1_000_000_000L);
        }
        long nanos = switch (v.substring(end)) {
            case "", "s" -> 1_000_000_000L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw ConfigException.unspaced("unexpected character '" + v.charAt(end == 0 ? 0 : end) + "' in argument to <"
                    + kw + ">.");
        };
        if (end == 0) {
            throw ConfigException.unspaced("unexpected character '" + v.charAt(0) + "' in argument to <" + kw + ">.");
        }
        double seconds = (double) n * nanos / 1e9;
        if (seconds > Integer.MAX_VALUE) {
            throw ConfigException.unspaced("timer overflow in argument <" + v + "> to <" + kw
                    + ">, maximum value is 2147483647 s (~68 years).");
        }
        if (n > 0 && seconds < 1) {
            throw ConfigException.unspaced("timer underflow in argument <" + v + "> to <" + kw + ">, minimum non-null value is 1 s.");
        }
        return (long) seconds;
    }
}
