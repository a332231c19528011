package io.fulcrum.cache;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * HTTP dates (RFC 7231 7.1.1.1): the IMF-fixdate, and the obsolete RFC 850 and asctime forms, in seconds. The day
 * of the week is read but not checked against the date.
 */
final class HttpDate {
    private static final DateTimeFormatter IMF = DateTimeFormatter.ofPattern("dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    private static final DateTimeFormatter RFC850 = new DateTimeFormatterBuilder().appendPattern("dd-MMM-")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 1970).appendPattern(" HH:mm:ss 'GMT'").toFormatter(Locale.US);
    private static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss yyyy", Locale.US);

    private HttpDate() {
    }

    /** The date in seconds since the epoch, or Long.MIN_VALUE when {@code text} is not an HTTP date. */
    static long parse(CharSequence text) {
        String s = text.toString().trim();
        int comma = s.indexOf(", ");
        try {
            if (comma < 0) {
                return s.length() > 4 ? seconds(s.substring(4), ASCTIME) : Long.MIN_VALUE;
            }
            String date = s.substring(comma + 2);
            return seconds(date, date.indexOf('-') > 0 ? RFC850 : IMF);
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE;
        }
    }

    private static long seconds(String text, DateTimeFormatter form) {
        return LocalDateTime.parse(text, form).toEpochSecond(ZoneOffset.UTC);
    }
}
