package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogTargetTest {

    private static LogTarget parse(String line) throws ConfigException {
        return LogTarget.parse(new ConfigLine(new Source("t.cfg", 1), line,
                Arrays.stream(line.split(" ")).map(w -> new Token(w, 0)).toList(), null), 1);
    }

    @Test
    void addresses() throws ConfigException {
        assertThat(parse("log 127.0.0.1 local0").destination()).hasToString("127.0.0.1:514");
        assertThat(parse("log 127.0.0.1: local0").destination()).hasToString("127.0.0.1:514");
        assertThat(parse("log 127.0.0.1:5514 local0").destination()).hasToString("127.0.0.1:5514");
        assertThat(parse("log udp@127.0.0.1:5514 local0").destination()).hasToString("127.0.0.1:5514");
        assertThat(parse("log [::1]:515 local0").destination()).hasToString("0:0:0:0:0:0:0:1:515");
        assertThat(parse("log /dev/log local0").destination()).isEqualTo(new LogDestination.UnixSocket("/dev/log", false));
        assertThat(parse("log stdout local0").destination()).isEqualTo(new LogDestination.Stream(1));
        assertThat(parse("log fd@2 local0").destination()).isEqualTo(new LogDestination.Stream(2));
        assertThat(parse("log fd@5 local0").destination()).hasToString("fd@5");
        assertThat(parse("log ring@buf local0").destination()).isEqualTo(new LogDestination.Ring("buf"));
        assertThat(parse("log tcp@127.0.0.1:6514 local0").destination()).hasToString("tcp@127.0.0.1:6514");
        assertThat(parse("log tcp@127.0.0.1 local0").destination()).hasToString("tcp@127.0.0.1:514");
        assertThatThrownBy(() -> parse("log fd@x local0")).hasMessage("file descriptor 'x' is not a valid integer in 'fd@x'");
        assertThat(parse("log uxst@/tmp/s local0").destination()).hasToString("uxst@/tmp/s");
        assertThat(parse("log abns@s local0").destination()).hasToString("abns@s");
        String longName = "abns@" + "x".repeat(108);
        assertThatThrownBy(() -> parse("log " + longName + " local0")).hasMessage("socket path '" + longName + "' too long (max 107)");
    }

    @Test
    void options() throws ConfigException {
        LogTarget t = parse("log stderr len 100 format short sample 1,3-4:5 daemon warning notice");
        assertThat(t.maxLength()).isEqualTo(100);
        assertThat(t.format()).isEqualTo(SyslogFormat.SHORT);
        assertThat(t.facility()).isEqualTo(3);
        assertThat(t.levelFor(Syslog.INFO)).isEqualTo(-1);
        assertThat(t.levelFor(Syslog.WARNING)).isEqualTo(Syslog.NOTICE);
        assertThat(t.levelFor(Syslog.EMERG)).isEqualTo(Syslog.NOTICE);
        LogSampling s = t.sampling();
        boolean[] taken = new boolean[10];
        for (int i = 0; i < taken.length; i++) {
            taken[i] = s.takes(i);
        }
        assertThat(taken).containsExactly(true, false, true, true, false, true, false, true, true, false);
        assertThat(parse("log 127.0.0.1 local7").format()).isNull();
    }
}
