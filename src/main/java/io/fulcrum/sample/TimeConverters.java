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
 * the C locale, http_date writes an HTTP date. Dates that do not exist (years beyond ±999999999) give no
 * result, where HAProxy prints whatever it had before.
 */
final class TimeConverters {
    private static final ZoneId UTC = ZoneOffset.UTC;

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
        long seconds = ArithmeticConverters.add(smp.num(), a.length > 1 ? a[1].num() : 0);
        ZonedDateTime t = at(seconds, 0, zone);
        return t != null && smp.setStr(Strftime.format(a[0].text(), t, seconds));
    }

    private static ZonedDateTime at(long seconds, long nanos, ZoneId zone) {
        try {
            return Instant.ofEpochSecond(seconds, nanos).atZone(zone);
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

    /** "Tue, 14 Nov 2023 22:13:20 GMT", with the milliseconds or microseconds when the input counts them. */
    private static boolean httpDate(Arg[] a, Sample smp, SampleContext ctx) {
        String unit = a.length > 1 ? a[1].text() : "";
        long perSecond = unit.equals("ms") ? 1_000 : unit.equals("us") ? 1_000_000 : 1;
        long v = ArithmeticConverters.add(smp.num(), a.length > 0 ? a[0].num() : 0);
        long fraction = Math.floorMod(v, perSecond);
        ZonedDateTime t = at(Math.floorDiv(v, perSecond), 0, UTC);
        if (t == null) {
            return false;
        }
        StringBuilder sb = new StringBuilder(40);
        sb.append(Strftime.DAYS[t.getDayOfWeek().getValue() % 7], 0, 3).append(", ");
        Strftime.pad(sb, t.getDayOfMonth(), 2, '0');
        sb.append(' ').append(Strftime.MONTHS[t.getMonthValue() - 1], 0, 3).append(' ');
        Strftime.pad(sb, t.getYear(), 4, '0');
        sb.append(' ');
        Strftime.pad(sb, t.getHour(), 2, '0');
        sb.append(':');
        Strftime.pad(sb, t.getMinute(), 2, '0');
        sb.append(':');
        Strftime.pad(sb, t.getSecond(), 2, '0');
        if (perSecond > 1) {
            sb.append('.');
            Strftime.pad(sb, fraction, perSecond == 1_000 ? 3 : 6, '0');
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

        static String format(String fmt, ZonedDateTime t, long epochSeconds) {
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
                if (!conversion(out, conv, flag, width, t, epochSeconds)) {
                    out.append(fmt, start, i);
                }
            }
            return out.toString();
        }

        /** Appends one conversion; false when {@code conv} is not one. */
        private static boolean conversion(StringBuilder out, char conv, char flag, int width, ZonedDateTime t, long epoch) {
            int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
            switch (conv) {
                case 'a' -> text(out, DAYS[t.getDayOfWeek().getValue() % 7].substring(0, 3), flag, width);
                case 'A' -> text(out, DAYS[t.getDayOfWeek().getValue() % 7], flag, width);
                case 'b', 'h' -> text(out, MONTHS[t.getMonthValue() - 1].substring(0, 3), flag, width);
                case 'B' -> text(out, MONTHS[t.getMonthValue() - 1], flag, width);
                case 'c' -> text(out, format("%a %b %e %H:%M:%S %Y", t, epoch), flag, width);
                case 'C' -> number(out, Math.floorDiv(t.getYear(), 100), 2, '0', flag, width);
                case 'd' -> number(out, t.getDayOfMonth(), 2, '0', flag, width);
                case 'D', 'x' -> text(out, format("%m/%d/%y", t, epoch), flag, width);
                case 'e' -> number(out, t.getDayOfMonth(), 2, ' ', flag, width);
                case 'F' -> text(out, format("%Y-%m-%d", t, epoch), flag, width);
                case 'g' -> number(out, Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100), 2, '0', flag, width);
                case 'G' -> number(out, t.get(IsoFields.WEEK_BASED_YEAR), 1, '0', flag, width);
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
                case 'r' -> text(out, format("%I:%M:%S %p", t, epoch), flag, width);
                case 'R' -> text(out, format("%H:%M", t, epoch), flag, width);
                case 's' -> number(out, epoch, 1, '0', flag, width);
                case 'S' -> number(out, t.getSecond(), 2, '0', flag, width);
                case 't' -> out.append('\t');
                case 'T', 'X' -> text(out, format("%H:%M:%S", t, epoch), flag, width);
                case 'u' -> number(out, t.getDayOfWeek().getValue(), 1, '0', flag, width);
                case 'U' -> number(out, (t.getDayOfYear() + 6 - t.getDayOfWeek().getValue() % 7) / 7, 2, '0', flag, width);
                case 'V' -> number(out, t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0', flag, width);
                case 'w' -> number(out, t.getDayOfWeek().getValue() % 7, 1, '0', flag, width);
                case 'W' -> number(out, (t.getDayOfYear() + 6 - (t.getDayOfWeek().getValue() + 6) % 7) / 7, 2, '0', flag, width);
                case 'y' -> number(out, Math.floorMod(t.getYear(), 100), 2, '0', flag, width);
                case 'Y' -> number(out, t.getYear(), 1, '0', flag, width);
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

        /** glibc names UTC "GMT" for gmtime() and the local zone by its abbreviation. */
        private static String zoneName(ZonedDateTime t) {
            if (t.getZone() == ZoneOffset.UTC) {
                return "GMT";
            }
            boolean dst = t.getZone().getRules().isDaylightSavings(t.toInstant());
            return java.util.TimeZone.getTimeZone(t.getZone()).getDisplayName(dst, java.util.TimeZone.SHORT, Locale.ROOT);
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
