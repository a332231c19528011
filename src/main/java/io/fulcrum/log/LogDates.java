package io.fulcrum.log;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The date forms of log lines and syslog headers, in the local time zone unless said otherwise:
 * {@code 06/Feb/2009:12:14:14.655} (%t), {@code 06/Feb/2009:12:14:14 +0000} (%T, %Tl),
 * {@code Feb  6 12:14:14} (RFC 3164) and {@code 2009-02-06T12:14:14.655123+00:00} (RFC 5424, ISO).
 */
public final class LogDates {
    private LogDates() {
    }

    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final ZoneId ZONE = ZoneId.systemDefault();

    private static ZoneOffset offset(long epochMillis) {
        return ZONE.getRules().getOffset(java.time.Instant.ofEpochMilli(epochMillis));
    }

    private static LocalDateTime at(long epochMillis, ZoneOffset offset) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), 0, offset);
    }

    /** The time now, in microseconds since the epoch (the date of syslog headers). */
    static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return java.util.concurrent.TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + now.getNano() / 1000;
    }

    /** {@code dd/Mon/yyyy:HH:MM:SS.mmm}, local time (%t, %tr). */
    public static void accept(StringBuilder out, long epochMillis) {
        dayMonthYearTime(out, at(epochMillis, offset(epochMillis)));
        out.append('.');
        pad(out, (int) Math.floorMod(epochMillis, 1000), 3);
    }

    /** {@code dd/Mon/yyyy:HH:MM:SS +0000}, in GMT (%T, %trg) or local time with its offset (%Tl, %trl). */
    static void withZone(StringBuilder out, long epochMillis, boolean gmt) {
        ZoneOffset off = gmt ? ZoneOffset.UTC : offset(epochMillis);
        dayMonthYearTime(out, at(epochMillis, off));
        out.append(' ');
        zone(out, off.getTotalSeconds(), false);
    }

    /** {@code Mon dd HH:MM:SS}, the day padded with a space (RFC 3164). */
    static void rfc3164(StringBuilder out, long epochMillis) {
        LocalDateTime t = at(epochMillis, offset(epochMillis));
        out.append(MONTHS[t.getMonthValue() - 1]).append(' ');
        if (t.getDayOfMonth() < 10) {
            out.append(' ');
        }
        out.append(t.getDayOfMonth()).append(' ');
        time(out, t);
    }

    /** {@code yyyy-mm-ddTHH:MM:SS.uuuuuu+hh:mm} (RFC 5424, iso and timed formats). */
    static void iso(StringBuilder out, long epochMicros) {
        long millis = Math.floorDiv(epochMicros, 1000);
        ZoneOffset off = offset(millis);
        LocalDateTime t = at(millis, off);
        out.append(t.getYear()).append('-');
        pad(out, t.getMonthValue(), 2);
        out.append('-');
        pad(out, t.getDayOfMonth(), 2);
        out.append('T');
        time(out, t);
        out.append('.');
        pad(out, (int) Math.floorMod(epochMicros, 1_000_000), 6);
        zone(out, off.getTotalSeconds(), true);
    }

    private static void dayMonthYearTime(StringBuilder out, LocalDateTime t) {
        pad(out, t.getDayOfMonth(), 2);
        out.append('/').append(MONTHS[t.getMonthValue() - 1]).append('/').append(t.getYear()).append(':');
        time(out, t);
    }

    private static void time(StringBuilder out, LocalDateTime t) {
        pad(out, t.getHour(), 2);
        out.append(':');
        pad(out, t.getMinute(), 2);
        out.append(':');
        pad(out, t.getSecond(), 2);
    }

    private static void zone(StringBuilder out, int seconds, boolean colon) {
        out.append(seconds < 0 ? '-' : '+');
        int m = Math.abs(seconds) / 60;
        pad(out, m / 60, 2);
        if (colon) {
            out.append(':');
        }
        pad(out, m % 60, 2);
    }

    static void pad(StringBuilder out, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            out.append('0');
        }
        out.append(s);
    }
}
