package io.fulcrum.log;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a received syslog message is split and what each format makes of it: the expectations are what haproxy 2.6
 * sent for the same messages (a log-forward section with one target per format).
 */
class ReceivedLogTest {
    private static final String RFC3164 = "<134>Dec  1 04:10:22 myhost prog[123]: hello 3164";
    private static final String RFC5424 = "<133>1 2026-12-01T04:10:22.123456+00:00 myhost prog 123 MSGID [ex@1 a=\"b\\]\"] hello 5424";

    /** The line sent for {@code message} in {@code format}, with facility local0 (16) when it has none. */
    private static String sent(String message, SyslogFormat format, int minLevel) {
        ReceivedLog r = new ReceivedLog(message.getBytes(StandardCharsets.ISO_8859_1));
        StringBuilder out = new StringBuilder();
        int level = Math.max(Math.max(r.level, 0), minLevel);
        int from = r.header(out, format, r.facility >= 0 ? r.facility : 16, level, 0, null);
        return out + message.substring(from);
    }

    @Test
    void rfc3164KeepsItsHeaderAndConvertsToRfc5424() {
        assertThat(sent(RFC3164, SyslogFormat.LOCAL, 0)).isEqualTo(RFC3164);
        assertThat(sent(RFC3164, SyslogFormat.RFC3164, 0)).isEqualTo(RFC3164);
        assertThat(sent(RFC3164, SyslogFormat.RFC5424, 0))
                .matches("<134>1 \\d{4}-12-01T04:10:22-00:00 myhost prog 123 - - hello 3164");
        assertThat(sent(RFC3164, SyslogFormat.RAW, 0)).isEqualTo("hello 3164");
        assertThat(sent(RFC3164, SyslogFormat.SHORT, 3)).isEqualTo("<6>hello 3164");
        assertThat(sent(RFC3164, SyslogFormat.TIMED, 0)).matches("<6>\\d{4}-12-01T04:10:22-00:00 hello 3164");
        assertThat(sent(RFC3164, SyslogFormat.ISO, 0)).matches("\\d{4}-12-01T04:10:22-00:00 hello 3164");
    }

    @Test
    void rfc5424KeepsItsHeaderAndConvertsToRfc3164() {
        assertThat(sent(RFC5424, SyslogFormat.LOCAL, 0)).isEqualTo(RFC5424);
        assertThat(sent(RFC5424, SyslogFormat.RFC5424, 0)).isEqualTo(RFC5424);
        assertThat(sent(RFC5424, SyslogFormat.RFC3164, 0)).isEqualTo("<133>Dec  1 04:10:22 myhost prog[123]: hello 5424");
        assertThat(sent(RFC5424, SyslogFormat.PRIORITY, 0)).isEqualTo("<133>hello 5424");
    }

    @Test
    void whatDoesNotParseStaysInTheMessage() {
        assertThat(sent("no header at all", SyslogFormat.LOCAL, 0)).isEqualTo("no header at all");
        assertThat(sent("no header at all", SyslogFormat.RFC3164, 0)).matches("<128>\\w{3} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d localhost no header at all");
        assertThat(sent("no header at all", SyslogFormat.RFC5424, 0)).matches("<128>1 \\S+ - - - - - no header at all");
        assertThat(sent("no header at all", SyslogFormat.SHORT, 3)).isEqualTo("<3>no header at all");
        assertThat(sent("<11>just text after pri", SyslogFormat.LOCAL, 0)).isEqualTo("<11>just text after pri");
        assertThat(sent("<11>just text after pri", SyslogFormat.RAW, 0)).isEqualTo("just text after pri");
        assertThat(sent("<999>bad pri", SyslogFormat.SHORT, 0)).isEqualTo("<7>bad pri");
        assertThat(sent("<999>bad pri", SyslogFormat.LOCAL, 0)).isEqualTo("<999>bad pri");
    }

    @Test
    void anRfc3164HostWithoutTag() {
        String m = "<13>Oct 11 22:14:15 prog: no host";
        assertThat(sent(m, SyslogFormat.RFC3164, 0)).isEqualTo(m);
        assertThat(sent(m, SyslogFormat.RFC5424, 0)).matches("<13>1 \\d{4}-10-11T22:14:15-00:00 prog: - - - - no host");
        assertThat(sent(m, SyslogFormat.RAW, 0)).isEqualTo("no host");
    }

    @Test
    void minLevelRewritesThePriority() {
        assertThat(sent(RFC3164, SyslogFormat.LOCAL, 7)).isEqualTo("<135>" + RFC3164.substring(5));
    }
}
