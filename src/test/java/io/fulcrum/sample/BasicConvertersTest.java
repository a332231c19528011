package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class BasicConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(abc),debug => str:abc
            str(abc),debug(pfx,stderr),upper => str:ABC
            int(-5),debug(,stdout) => sint:-5
            ipv6(::1),debug(v6,buf0) => ipv6:::1
            bool(1),debug(b,stderr) => bool:1
            str(abc),sha1,debug(x,stderr),hex => str:A9993E364706816ABA3E25717850C26C9CD0D89D
            """;
    }

    @Override
    String errors() {
        return """
            str(a),debug(x,nosuch) => invalid args in converter 'debug' : No such sink 'nosuch'
            str(a),debug(x,y,z) => invalid arg 2 in converter 'debug' : expected ')' before ',z)'
            """;
    }

    @Test
    void debugWritesWhatHaproxyWrites() throws ConfigException {
        // Lines as haproxy 2.6.12 writes them to stderr.
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.ISO_8859_1));
        try {
            eval("str(abc),debug(pfx,stderr),debug(,stderr)");
            eval("int(-5),debug(,stderr)");
            eval("ipv6(::1),debug(v6,stderr)");
            eval("bool(1),debug(b,stderr)");
            eval("str(AAFhfw==),b64dec,debug(bin,stderr)");
            eval("str(AWF/),b64dec,debug(bin,stderr)");
        } finally {
            System.setErr(err);
        }
        assertThat(captured.toString(StandardCharsets.ISO_8859_1)).isEqualTo("""
                [debug] pfx: type=str <abc>
                [debug] : type=str <abc>
                [debug] : type=sint <-5>
                [debug] v6: type=ipv6 <::1>
                [debug] b: type=bool <1>
                [debug] bin: type=bin <>
                [debug] bin: type=bin <.a.>
                """);
    }
}
