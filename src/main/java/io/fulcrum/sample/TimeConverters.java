package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.IsoFields;
import java.util.Locale;

import static io.fulcrum.sample.ArgType.*;

/**
 * Dates from integers (configuration.txt 7.3.1): ltime and utime format with strftime(3)'s conversions in
 * the C locale, http_date writes an HTTP date. As HAProxy, they keep the low 55 bits of the date (so that
 * the year fits gmtime(3)): a negative date is one of the year 1141709097 or so.
 */
final class TimeConverters {
    private static final ZoneId UTC = ZoneOffset.UTC;
    /** HAProxy's mask: "with high numbers, the date returned can be negative, the 55 bits mask prevent this". */
    private static final long DATE_MASK = 0x007fffffffffffffL;
    /** Seconds in 400 Gregorian years: the calendar, weekdays included, repeats after them. */
    private static final long CYCLE_SECONDS = 146_097L * 86_400;
    /**
     * Beyond this, dates are shifted by whole cycles into what java.time represents: the end of the year
     * 999999999, less a day for the local time zone's offset.
     */
    private static final long CYCLES_FROM = 31_556_889_832_780_799L - 86_400;

    private TimeConverters() {
    }

    static void register(SampleCatalog c) {
        c.converter(new Converter("utime", ArgSpec.of(1, STR, SINT), SampleType.SINT, SampleType.STR,
                (a, smp, ctx) -> format(a, smp, UTC)));
        c.converter(new Converter("ltime", ArgSpec.of(1, STR, SINT), SampleType.SINT, SampleType.STR,
                (a, smp, ctx) -> format(a, smp, ZoneId.systemDefault())));
        c.converter(new Converter("http_date", ArgSpec.of(0, SINT, STR), SampleType.SINT, SampleType.STR,
                TimeConverters::httpDate, TimeConverters::checkUnit));
    }

    private static boolean format(Arg[] a, Sample smp, ZoneId zone) {
        long seconds = (smp.num() & DATE_MASK) + (a.length > 1 ? a[1].num() : 0); // the offset after the mask, as HAProxy
        String s = format(a[0].text(), seconds, zone, ZoneId.systemDefault());
        return s != null && smp.setStr(s);
    }

    /**
     * The date {@code seconds} in {@code zone} as strftime(3) writes it where the local time zone is {@code local}, or
     * null when it cannot be represented.
     */
    static String format(String fmt, long seconds, ZoneId zone, ZoneId local) {
        long cycles = cycles(seconds);
        ZonedDateTime t = at(seconds - cycles * CYCLE_SECONDS, zone);
        if (t == null) {
            return null;
        }
        // glibc's %s is mktime() of the broken-down time: gmtime()'s (utime) is read as the local standard time
        long epoch = zone.equals(local) ? seconds
                : seconds - local.getRules().getStandardOffset(t.toInstant()).getTotalSeconds();
        return Strftime.format(fmt, t, epoch, cycles * 400);
    }

    /** How many 400-year cycles to take off a date too far for java.time (masked dates reach the year 1141709097). */
    private static long cycles(long seconds) {
        return seconds > CYCLES_FROM ? Math.ceilDiv(seconds - CYCLES_FROM, CYCLE_SECONDS) : 0;
    }

    private static ZonedDateTime at(long seconds, ZoneId zone) {
        try {
            return Instant.ofEpochSecond(seconds).atZone(zone);
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }

    // --- http_date -----------------------------------------------------------------------------------

    private static void checkUnit(Arg[] a) throws ConfigException {
        String unit = a.length > 1 ? a[1].text() : "";
        if (!unit.isEmpty() && !unit.equals("s") && !unit.equals("ms") && !unit.equals("us")) {
            throw new ConfigException("expects 's', 'ms' or 'us', got '" + unit + "'");
        }
    }

    /**
     * "Tue, 14 Nov 2023 22:13:20 GMT", with the milliseconds or microseconds when the input counts them. As
     * HAProxy: the offset wraps around, the division truncates and the seconds are masked (a negative fraction
     * is written as 2.6.12 does, ".-5"); a positive fraction is zero-padded (2.6.12 writes 5 ms as ".5").
     */
    private static boolean httpDate(Arg[] a, Sample smp, SampleContext ctx) {
        String unit = a.length > 1 ? a[1].text() : "";
        long perSecond = unit.equals("ms") ? 1_000 : unit.equals("us") ? 1_000_000 : 1;
        long v = smp.num() + (a.length > 0 ? a[0].num() : 0);
        long fraction = v % perSecond;
        long seconds = (v / perSecond) & DATE_MASK;
        long cycles = cycles(seconds);
        ZonedDateTime t = at(seconds - cycles * CYCLE_SECONDS, UTC);
        if (t == null) {
            return false;
        }
        StringBuilder sb = new StringBuilder(40);
        sb.append(Strftime.DAYS[t.getDayOfWeek().getValue() % 7], 0, 3).append(", ");
        Strftime.pad(sb, t.getDayOfMonth(), 2, '0');
        sb.append(' ').append(Strftime.MONTHS[t.getMonthValue() - 1], 0, 3).append(' ');
        Strftime.pad(sb, t.getYear() + cycles * 400, 4, '0');
        sb.append(' ');
        Strftime.pad(sb, t.getHour(), 2, '0');
        sb.append(':');
        Strftime.pad(sb, t.getMinute(), 2, '0');
        sb.append(':');
        Strftime.pad(sb, t.getSecond(), 2, '0');
        if (perSecond > 1) {
            sb.append('.');
            Strftime.pad(sb, fraction, fraction < 0 ? 0 : perSecond == 1_000 ? 3 : 6, '0');
        }
        return smp.setStr(sb.append(" GMT"));
    }

    /** strftime(3) in the C locale, with glibc's flags ('-', '_', '0', '^') and widths. */
    static final class Strftime {
        static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
        static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December"};

        private Strftime() {
        }

        /** @param years added to the year of {@code t}: whole 400-year cycles taken off a date too far for java.time */
        static String format(String fmt, ZonedDateTime t, long epochSeconds, long years) {
            StringBuilder out = new StringBuilder(fmt.length() + 16);
            int i = 0;
            while (i < fmt.length()) {
                char c = fmt.charAt(i++);
                if (c != '%') {
                    out.append(c);
                    continue;
                }
                int start = i - 1;
                char flag = 0;
                while (i < fmt.length() && "-_0^#".indexOf(fmt.charAt(i)) >= 0) {
                    flag = fmt.charAt(i++);
                }
                int width = -1;
                while (i < fmt.length() && Character.isDigit(fmt.charAt(i))) {
                    width = Math.max(width, 0) * 10 + fmt.charAt(i++) - '0';
                }
                if (i < fmt.length() && (fmt.charAt(i) == 'E' || fmt.charAt(i) == 'O')) {
                    i++; // alternative forms are the same in the C locale
                }
                if (i >= fmt.length()) {
                    out.append(fmt, start, fmt.length());
                    break;
                }
                char conv = fmt.charAt(i++);
                if (!conversion(out, conv, flag, width, t, epochSeconds, years)) {
                    out.append(fmt, start, i);
                }
            }
            return out.toString();
        }

        /** Appends one conversion; false when {@code conv} is not one. */
        private static boolean conversion(StringBuilder out, char conv, char flag, int width, ZonedDateTime t, long epoch, long years) {
            int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
            switch (conv) {
                case 'a' -> text(out, DAYS[t.getDayOfWeek().getValue() % 7].substring(0, 3), flag, width);
                case 'A' -> text(out, DAYS[t.getDayOfWeek().getValue() % 7], flag, width);
                case 'b', 'h' -> text(out, MONTHS[t.getMonthValue() - 1].substring(0, 3), flag, width);
                case 'B' -> text(out, MONTHS[t.getMonthValue() - 1], flag, width);
                case 'c' -> text(out, format("%a %b %e %H:%M:%S %Y", t, epoch, years), flag, width);
                case 'C' -> number(out, Math.floorDiv(t.getYear() + years, 100), 2, '0', flag, width);
                case 'd' -> number(out, t.getDayOfMonth(), 2, '0', flag, width);
                case 'D', 'x' -> text(out, format("%m/%d/%y", t, epoch, years), flag, width);
                case 'e' -> number(out, t.getDayOfMonth(), 2, ' ', flag, width);
                case 'F' -> text(out, format("%Y-%m-%d", t, epoch, years), flag, width);
                case 'g' -> number(out, Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100), 2, '0', flag, width);
                case 'G' -> number(out, t.get(IsoFields.WEEK_BASED_YEAR) + years, 1, '0', flag, width);
                case 'H' -> number(out, t.getHour(), 2, '0', flag, width);
                case 'I' -> number(out, hour12, 2, '0', flag, width);
                case 'j' -> number(out, t.getDayOfYear(), 3, '0', flag, width);
                case 'k' -> number(out, t.getHour(), 2, ' ', flag, width);
                case 'l' -> number(out, hour12, 2, ' ', flag, width);
                case 'm' -> number(out, t.getMonthValue(), 2, '0', flag, width);
                case 'M' -> number(out, t.getMinute(), 2, '0', flag, width);
                case 'n' -> out.append('\n');
                case 'p' -> text(out, t.getHour() < 12 ? "AM" : "PM", flag, width);
                case 'P' -> text(out, t.getHour() < 12 ? "am" : "pm", flag, width);
                case 'r' -> text(out, format("%I:%M:%S %p", t, epoch, years), flag, width);
                case 'R' -> text(out, format("%H:%M", t, epoch, years), flag, width);
                case 's' -> number(out, epoch, 1, '0', flag, width);
                case 'S' -> number(out, t.getSecond(), 2, '0', flag, width);
                case 't' -> out.append('\t');
                case 'T', 'X' -> text(out, format("%H:%M:%S", t, epoch, years), flag, width);
                case 'u' -> number(out, t.getDayOfWeek().getValue(), 1, '0', flag, width);
                case 'U' -> number(out, (t.getDayOfYear() + 6 - t.getDayOfWeek().getValue() % 7) / 7, 2, '0', flag, width);
                case 'V' -> number(out, t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0', flag, width);
                case 'w' -> number(out, t.getDayOfWeek().getValue() % 7, 1, '0', flag, width);
                case 'W' -> number(out, (t.getDayOfYear() + 6 - (t.getDayOfWeek().getValue() + 6) % 7) / 7, 2, '0', flag, width);
                case 'y' -> number(out, Math.floorMod(t.getYear(), 100), 2, '0', flag, width);
                case 'Y' -> number(out, t.getYear() + years, 1, '0', flag, width);
                case 'z' -> {
                    int off = t.getOffset().getTotalSeconds() / 60;
                    out.append(off < 0 ? '-' : '+');
                    pad(out, Math.abs(off) / 60 * 100 + Math.abs(off) % 60, 4, '0');
                }
                case 'Z' -> text(out, zoneName(t), flag, width);
                case '%' -> out.append('%');
                default -> {
                    return false;
                }
            }
            return true;
        }

        /**
         * glibc names UTC "GMT" for gmtime() and the local zone by its abbreviation ("CET", "CEST"): the JDK's
         * English names, which are tzdata's for most zones (its root locale has none: "GMT+01:00").
         */
        private static String zoneName(ZonedDateTime t) {
            if (t.getZone() == ZoneOffset.UTC) {
                return "GMT";
            }
            boolean dst = t.getZone().getRules().isDaylightSavings(t.toInstant());
            return java.util.TimeZone.getTimeZone(t.getZone()).getDisplayName(dst, java.util.TimeZone.SHORT, Locale.US);
        }

        private static void number(StringBuilder out, long v, int digits, char padding, char flag, int width) {
            int w = width >= 0 ? width : flag == '-' ? 1 : digits;
            char p = flag == '_' ? ' ' : flag == '0' ? '0' : padding;
            pad(out, v, w, p);
        }

        private static void text(StringBuilder out, String s, char flag, int width) {
            String v = flag == '^' ? s.toUpperCase(Locale.ROOT) : s;
            for (int k = v.length(); k < width; k++) {
                out.append(flag == '0' ? '0' : ' ');
            }
            out.append(v);
        }

        static void pad(StringBuilder out, long v, int width, char padding) {
            String digits = Long.toString(Math.abs(v));
            if (v < 0) {
                out.append('-');
            }
            for (int k = digits.length() + (v < 0 ? 1 : 0); k < width; k++) {
                out.append(padding);
            }
            out.append(digits);
        }
    }
}
