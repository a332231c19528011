package io.fulcrum.cfg;

import java.util.concurrent.TimeUnit;

/**
 * Numbers in configuration values, as HAProxy reads them (configuration.txt 2.5) but strictly: a value
 * HAProxy would silently read as 0 or cut short is an error naming it. Messages name the keyword the
 * value belongs to, e.g. "unexpected character 'x' in 'timeout client'".
 */
public final class Units {
    private Units() {
    }

    /** Times are stored by HAProxy in signed 32-bit integers of the keyword's unit. */
    private static final long TIME_MAX = Integer.MAX_VALUE;
    /** Sizes are unsigned 32-bit integers. */
    private static final long SIZE_MAX = 0xFFFFFFFFL;

    /** A time in milliseconds, the unit of most keywords ({@code timeout *} for example). */
    public static long time(String text, String keyword) throws ConfigException {
        return time(text, keyword, TimeUnit.MILLISECONDS);
    }

    /**
     * A time in ms, with the wording HAProxy's sections other than the proxies' (resolvers, mailers) give a bad character:
     * "unexpected character 'x' in argument to <keyword>.".
     */
    public static long timeArgument(String text, String keyword) throws ConfigException {
        try {
            return time(text, keyword);
        } catch (ConfigException e) {
            int bad = 0;
            while (bad < text.length() && Character.isDigit(text.charAt(bad))) {
                bad++;
            }
            if (bad == 0 || bad < text.length() && !text.substring(bad).matches("us|ms|s|m|h|d")) {
                throw ConfigException.unspaced("unexpected character '" + text.charAt(bad) + "' in argument to <" + keyword + ">.");
            }
            throw e;
        }
    }

    /**
     * A time in {@code unit} (microseconds, milliseconds or seconds), which is also the unit of a bare
     * number. The suffixes are us, ms, s, m, h and d. A value finer than {@code unit} is rounded up, so
     * that a non-zero time never becomes 0, which often means "never". At most 2^31-1 units.
     */
    public static long time(String text, String keyword, TimeUnit unit) throws ConfigException {
        return time(text, keyword, unit, TIME_MAX);
    }

    /** As {@link #time(String, String, TimeUnit)}, with another largest value (the caller's own overflow message). */
    public static long time(String text, String keyword, TimeUnit unit, long max) throws ConfigException {
        if (text.isEmpty()) {
            throw new ConfigException("'" + keyword + "' expects an integer value (in " + unit.name().toLowerCase() + ")");
        }
        int end = digits(text);
        if (end == 0) {
            throw unexpected(text, 0, keyword);
        }
        String suffix = text.substring(end);
        TimeUnit given = switch (suffix) {
            case "" -> unit;
            case "us" -> TimeUnit.MICROSECONDS;
            case "ms" -> TimeUnit.MILLISECONDS;
            case "s" -> TimeUnit.SECONDS;
            case "m" -> TimeUnit.MINUTES;
            case "h" -> TimeUnit.HOURS;
            case "d" -> TimeUnit.DAYS;
            default -> throw badTimeUnit(text, end, keyword);
        };
        long nanos = given.toNanos(1);
        long per = unit.toNanos(1);
        long value = saturatedValue(text, end);
        long result = nanos >= per
                ? saturatedMultiply(value, nanos / per)
                : value / (per / nanos) + (value % (per / nanos) == 0 ? 0 : 1);
        if (result > max) {
            throw new ConfigException("timer overflow in argument '" + text + "' to '" + keyword
                    + "' (maximum value is " + TIME_MAX + " " + abbreviation(unit) + ")");
        }
        return result;
    }

    /**
     * A size in bytes: a number optionally followed by k, m or g (either case, powers of 1024), at most
     * 2^32-1 as in HAProxy.
     */
    public static long size(String text, String keyword) throws ConfigException {
        if (text.isEmpty()) {
            throw new ConfigException("'" + keyword + "' expects a size argument");
        }
        int end = digits(text);
        if (end == 0) {
            throw unexpected(text, 0, keyword);
        }
        if (end < text.length() - 1) {
            throw unexpected(text, end + ("kKmMgG".indexOf(text.charAt(end)) >= 0 ? 1 : 0), keyword);
        }
        int shift = end == text.length() ? 0 : switch (Character.toLowerCase(text.charAt(end))) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> throw unexpected(text, end, keyword);
        };
        long value = saturatedValue(text, end);
        if (value > SIZE_MAX >> shift) {
            throw new ConfigException("size '" + text + "' for '" + keyword + "' is too large (maximum is " + SIZE_MAX + " bytes)");
        }
        return value << shift;
    }

    /** A whole decimal integer with an optional sign, nothing else. */
    public static long integer(String text, String keyword) throws ConfigException {
        if (text.isEmpty()) {
            throw new ConfigException("'" + keyword + "' expects an integer argument.");
        }
        int sign = text.charAt(0) == '-' || text.charAt(0) == '+' ? 1 : 0;
        if (digits(text.substring(sign)) != text.length() - sign || text.length() == sign) {
            throw new ConfigException("'" + keyword + "' expects an integer argument, got '" + text + "'.");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException("'" + keyword + "' value '" + text + "' is out of range.");
        }
    }

    /** An integer in [min, max]. */
    public static long integer(String text, String keyword, long min, long max) throws ConfigException {
        long v = integer(text, keyword);
        if (v < min || v > max) {
            throw new ConfigException("'" + keyword + "' value must be between " + min + " and " + max + " (was " + text + ")");
        }
        return v;
    }

    /** The length of the run of ASCII digits starting {@code text}. */
    private static int digits(String text) {
        int i = 0;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    /** The number in the first {@code end} characters (all digits), Long.MAX_VALUE when larger. */
    private static long saturatedValue(String text, int end) {
        long v = 0;
        for (int i = 0; i < end; i++) {
            v = saturatedMultiply(v, 10);
            v = v > Long.MAX_VALUE - 9 ? Long.MAX_VALUE : v + (text.charAt(i) - '0');
        }
        return v;
    }

    private static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    private static ConfigException unexpected(String text, int at, String keyword) {
        return new ConfigException("unexpected character '" + text.charAt(at) + "' in '" + keyword + "'");
    }

    /**
     * A unit followed by more characters. HAProxy 2.6 only warns ("This will be reported as an error in
     * next versions") and ignores them; Fulcrum refuses them.
     */
    private static ConfigException badTimeUnit(String text, int end, String keyword) {
        int at = end;
        for (String u : new String[] {"us", "ms", "s", "m", "h", "d"}) {
            if (text.startsWith(u, end)) {
                at = end + u.length();
                break;
            }
        }
        if (at == end) {
            return unexpected(text, end, keyword);
        }
        return new ConfigException("unexpected character '" + text.charAt(at) + "' after the timer value '" + text
                + "' in '" + keyword + "', only (us=microseconds,ms=milliseconds,s=seconds,m=minutes,h=hours,d=days)"
                + " are supported");
    }

    private static String abbreviation(TimeUnit unit) {
        return switch (unit) {
            case MICROSECONDS -> "us or ~35.8 minutes";
            case MILLISECONDS -> "ms or ~24.8 days";
            case SECONDS -> "s or ~68 years";
            default -> unit.name().toLowerCase();
        };
    }
}
