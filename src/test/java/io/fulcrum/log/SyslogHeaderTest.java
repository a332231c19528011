package io.fulcrum.log;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The header of each format, as HAProxy 2.6 writes it (bytes captured from it with a UDP listener). */
class SyslogHeaderTest {
    /** 2009-02-06 12:14:14.655123 UTC. */
    private static final long MICROS = 1_233_922_454_655_123L;
    private static final Instant AT = Instant.ofEpochSecond(0, MICROS * 1000);

    private static String header(SyslogFormat f, String host) {
        StringBuilder sb = new StringBuilder();
        SyslogHeader.append(sb, f, 16, 6, MICROS, host, "haproxy", 14389, null);
        return sb.toString();
    }

    /** The local date forms, in the zone the tests run in. */
    private static String local(String pattern) {
        return DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneId.systemDefault()).format(AT);
    }

    @Test
    void eachFormat() {
        String rfc3164 = local("MMM ppd HH:mm:ss");
        String iso = local("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");
        assertThat(header(SyslogFormat.LOCAL, null)).isEqualTo("<134>" + rfc3164 + " haproxy[14389]: ");
        assertThat(header(SyslogFormat.RFC3164, null)).isEqualTo("<134>" + rfc3164 + " localhost haproxy[14389]: ");
        assertThat(header(SyslogFormat.RFC3164, "vm")).isEqualTo("<134>" + rfc3164 + " vm haproxy[14389]: ");
        assertThat(header(SyslogFormat.RFC5424, null)).isEqualTo("<134>1 " + iso + " - haproxy 14389 - - ");
        assertThat(header(SyslogFormat.RFC5424, "vm")).isEqualTo("<134>1 " + iso + " vm haproxy 14389 - - ");
        StringBuilder sd = new StringBuilder();
        SyslogHeader.append(sd, SyslogFormat.RFC5424, 16, 6, MICROS, null, "haproxy", 14389, "[id@1 a=\"b\"]");
        assertThat(sd).hasToString("<134>1 " + iso + " - haproxy 14389 - [id@1 a=\"b\"] ");
        StringBuilder ignored = new StringBuilder();
        SyslogHeader.append(ignored, SyslogFormat.SHORT, 16, 6, MICROS, null, "haproxy", 14389, "[id@1]");
        assertThat(ignored).hasToString("<6>");
        assertThat(header(SyslogFormat.PRIORITY, "vm")).isEqualTo("<134>");
        assertThat(header(SyslogFormat.SHORT, "vm")).isEqualTo("<6>");
        assertThat(header(SyslogFormat.TIMED, "vm")).isEqualTo("<6>" + iso + " ");
        assertThat(header(SyslogFormat.ISO, "vm")).isEqualTo(iso + " ");
        assertThat(header(SyslogFormat.RAW, "vm")).isEmpty();
    }

    @Test
    void singleDigitDaysArePaddedWithASpace() {
        assertThat(header(SyslogFormat.LOCAL, null)).containsPattern("^<134>Feb  [67] ");
    }

    @Test
    void logLineDates() {
        long millis = MICROS / 1000;
        StringBuilder sb = new StringBuilder();
        LogDates.accept(sb, millis);
        assertThat(sb).hasToString(local("dd/MMM/yyyy:HH:mm:ss.SSS"));
        sb.setLength(0);
        LogDates.withZone(sb, millis, true);
        assertThat(sb).hasToString("06/Feb/2009:12:14:14 +0000");
        sb.setLength(0);
        LogDates.withZone(sb, millis, false);
        assertThat(sb).hasToString(local("dd/MMM/yyyy:HH:mm:ss xx"));
    }

    /** A message without metadata (the debug converter's), as haproxy 2.6.12 put it in rings of each format. */
    @Test
    void withoutMetadata() {
        String rfc3164 = local("MMM ppd HH:mm:ss");
        String iso = local("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");
        String[] expected = {"<0>" + rfc3164 + " ", "<0>" + rfc3164 + " localhost ", "<0>1 " + iso + " - - - - - ", "<0>", "<0>",
            "<0>" + iso + " ", iso + " ", ""};
        for (SyslogFormat f : SyslogFormat.values()) {
            StringBuilder sb = new StringBuilder();
            SyslogHeader.append(sb, f, 0, 0, MICROS, null, null, 0, null);
            assertThat(sb).as(f.toString()).hasToString(expected[f.ordinal()]);
        }
    }
}
