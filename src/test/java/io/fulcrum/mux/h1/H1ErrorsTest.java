package io.fulcrum.mux.h1;

import io.fulcrum.cli.CliException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The layout of {@code show errors}: HAProxy 2.6's dump_text_line() and its arguments. */
class H1ErrorsTest {

    private static String dump(String raw) {
        StringBuilder b = new StringBuilder();
        H1ErrorSnapshot.dump(b, raw.getBytes(StandardCharsets.ISO_8859_1));
        return b.toString();
    }

    @Test
    void linesAreCutSoThatNoneGoesBeyond79Columns() {
        String out = dump("a".repeat(150) + "\r\n");
        assertThat(out).isEqualTo("  00000  " + "a".repeat(70) + "\n  00070+ " + "a".repeat(70) + "\n  00140+ " + "a".repeat(10) + "\\r\\n\n");
        assertThat(out.lines()).allMatch(l -> l.length() <= 79);
        // An escape that does not fit whole goes to the next line.
        assertThat(dump("a".repeat(69) + "\u0001b")).isEqualTo("  00000  " + "a".repeat(69) + "\n  00069+ \\x01b\n");
        assertThat(dump("a".repeat(69) + "\tb")).isEqualTo("  00000  " + "a".repeat(69) + "\n  00069+ \\tb\n");
        assertThat(dump("a".repeat(68) + "\tb")).isEqualTo("  00000  " + "a".repeat(68) + "\\t\n  00069+ b\n");
    }

    @Test
    void bytesAreEscapedAsHaproxyEscapesThem() {
        assertThat(dump("a\\b\u001b\u007f\u0080\u00ff\n\nx")).isEqualTo("  00000  a\\\\b\\e\\x7F\\x80\\xFF\\n\n  00008  \\n\n  00009  x\n");
        assertThat(dump("")).isEmpty();
    }

    @Test
    void aSnapshotHasHaproxysHeader() {
        H1ErrorSnapshot s = new H1ErrorSnapshot(0, 4, false, "be", 3, "fe", 2, "s1", 1, "127.0.0.1:4000",
                new H1Capture(10, "HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.ISO_8859_1)), 12);
        StringBuilder b = new StringBuilder();
        s.appendTo(b, 16384);
        assertThat(b.toString()).matches("(?s) \n\\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d\\.000] backend be \\(#3\\): invalid response\n"
                + "  frontend fe \\(#2\\), server s1 \\(#1\\), event #4, src 127\\.0\\.0\\.1:4000\n"
                + "  buffer starts at 10 \\(including 0 out\\), 16367 free,\n"
                + "  len 17, wraps at 16384, error at position 2\n"
                + "  \n"
                + "  00000  HTTP/1\\.1 200 OK\\\\r\\\\n\n");
    }

    @Test
    void aProxyIsNamedOrNumberedAsHaproxyReadsIt() throws CliException {
        Map<Integer, String> proxies = Map.of(2, "fe", 3, "be", 12, "7");
        assertThat(H1Errors.proxyId("", proxies)).isEqualTo(-1);
        assertThat(H1Errors.proxyId("be", proxies)).isEqualTo(3);
        assertThat(H1Errors.proxyId("7", proxies)).isEqualTo(12); // a name first
        assertThat(H1Errors.proxyId("-1", proxies)).isEqualTo(-1);
        assertThat(H1Errors.proxyId("99", proxies)).isEqualTo(99);
        assertThat(H1Errors.proxyId("2x", proxies)).isEqualTo(2);
        assertThatThrownBy(() -> H1Errors.proxyId("nope", proxies)).hasMessage("No such proxy.\n");
        assertThatThrownBy(() -> H1Errors.proxyId("0", proxies)).hasMessage("No such proxy.\n");
    }
}
