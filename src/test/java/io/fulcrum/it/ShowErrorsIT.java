package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show errors} over a real stats socket after bad requests from raw sockets and a bad response from a
 * server: the header of each capture and its dump are HAProxy 2.6's, byte for byte (checked against haproxy,
 * -Dit.proxy=haproxy; HAProxy adds three lines of its H1 mux's flags before the dump, which Fulcrum has not).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShowErrorsIT {
    private static final String HEADER = "(?s)Total events captured on \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d\\.\\d{3}] : ";
    private static final String DATE = "\\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d\\.\\d{3}]";

    private Origin bad;
    private Path admin;
    private Path user;
    private FulcrumProcess proxy;
    private int fe;

    @BeforeEach
    void start() throws Exception {
        bad = Origin.start(s -> {
            InputStream in = s.getInputStream();
            in.read(new byte[4096]);
            OutputStream out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nBad\u0001Header: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Thread.sleep(300);
        });
        admin = Files.createTempDirectory("fulcrum-err").resolve("admin.sock");
        user = Files.createTempDirectory("fulcrum-err").resolve("user.sock");
        fe = freePort();
        proxy = serve("""
                global
                    stats socket %s level admin
                    stats socket %s level user
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    server s2 127.0.0.1:%d
                """.formatted(admin, user, fe, bad.port()), fe);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        bad.close();
    }

    @Test
    void aBadRequestIsShownWithItsBytesEscapedAndItsErrorPosition() throws Exception {
        assertThat(CliClient.send(admin, "show errors")).matches(HEADER + "0\n\n");
        int port = refused("\r\n\r\nGET /\u0001\u001b\\x\u007f\u00ff HTTP/1.1\r\nHost: a\r\n\r\n");
        String out = CliClient.send(admin, "show errors");
        assertThat(out).matches(HEADER + "1\n \n" + DATE + " frontend fe \\(#2\\): invalid request\n"
                + "  backend <NONE> \\(#-1\\), server <NONE> \\(#-1\\), event #0, src 127\\.0\\.0\\.1:" + port + "\n"
                + "  buffer starts at 0 \\(including 0 out\\), 16347 free,\n"
                + "  len 37, wraps at \\d+, error at position 9\n.*");
        assertThat(dump(out)).isEqualTo("""
                  00000  \\r\\n
                  00002  \\r\\n
                  00004  GET /\\x01\\e\\\\x\\x7F\\xFF HTTP/1.1\\r\\n
                  00026  Host: a\\r\\n
                  00035  \\r\\n

                """);
    }

    @Test
    void longLinesAreCutAt79ColumnsAndAHeadInTwoReadsIsWhole() throws Exception {
        refused("GET /x HTTP/1.1\r\nHost: a\r\nX-Long: " + "abcdefghij".repeat(15) + "\r\nBad Name: x\r\n\r\n");
        String out = CliClient.send(admin, "show errors fe request");
        assertThat(out).contains("  len 201, wraps at ").contains(", error at position 189\n");
        assertThat(dump(out)).isEqualTo("""
                  00000  GET /x HTTP/1.1\\r\\n
                  00017  Host: a\\r\\n
                  00026  X-Long: abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab
                  00096+ cdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijab
                  00166+ cdefghijabcdefghij\\r\\n
                  00186  Bad Name: x\\r\\n
                  00199  \\r\\n

                """);
        try (Socket s = connect(fe)) {
            s.getOutputStream().write("GET /y HTTP/1.1\r\nHo".getBytes(StandardCharsets.ISO_8859_1));
            Thread.sleep(300);
            s.getOutputStream().write("st: a\r\nBad Name: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 400");
        }
        out = CliClient.send(admin, "show errors fe");
        assertThat(out).contains("event #1,").contains("  len 41, wraps at ").contains(", error at position 29\n");
        assertThat(dump(out)).isEqualTo("""
                  00000  GET /y HTTP/1.1\\r\\n
                  00017  Host: a\\r\\n
                  00026  Bad Name: x\\r\\n
                  00039  \\r\\n

                """);
    }

    @Test
    void aBadResponseIsKeptByItsBackendAndTheFiltersChooseWhatIsShown() throws Exception {
        int port;
        try (Socket s = connect(fe)) {
            port = s.getLocalPort();
            s.getOutputStream().write("GET /y HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 502");
        }
        String out = CliClient.send(admin, "show errors");
        assertThat(out).matches(HEADER + "1\n \n" + DATE + " backend be \\(#3\\): invalid response\n"
                + "  frontend fe \\(#2\\), server s2 \\(#1\\), event #0, src 127\\.0\\.0\\.1:" + port + "\n"
                + "  buffer starts at 0 \\(including 0 out\\), 16331 free,\n"
                + "  len 53, wraps at \\d+, error at position 39\n.*");
        assertThat(dump(out)).isEqualTo("""
                  00000  HTTP/1.1 200 OK\\r\\n
                  00017  Content-Length: 0\\r\\n
                  00036  Bad\\x01Header: x\\r\\n
                  00051  \\r\\n

                """);
        refused("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n");
        assertThat(CliClient.send(admin, "show errors be")).contains("invalid response").doesNotContain("invalid request");
        assertThat(CliClient.send(admin, "show errors 3 request")).matches(HEADER + "2\n\n");
        assertThat(CliClient.send(admin, "show errors -1 request")).contains("invalid request").doesNotContain("invalid response");
        // As in HAProxy, a response concerns its frontend too.
        assertThat(CliClient.send(admin, "show errors fe response")).contains("invalid response").doesNotContain("invalid request");
        assertThat(CliClient.send(admin, "show errors 2 request")).contains("invalid request").doesNotContain("invalid response");
        assertThat(CliClient.send(admin, "show errors 99")).matches(HEADER + "2\n\n");
        assertThat(CliClient.send(admin, "show errors nope")).isEqualTo("No such proxy.\n\n");
        assertThat(CliClient.send(admin, "show errors 0")).isEqualTo("No such proxy.\n\n");
        assertThat(CliClient.send(user, "show errors")).isEqualTo("Permission denied\n\n");
        assertThat(CliClient.send(admin, "help show errors")).contains(
                "  show errors [<px>] [request|response]   : report last request and/or response errors for each proxy\n");
    }

    /** Sends a request the proxy refuses with a 400; returns the client's port. */
    private int refused(String request) throws Exception {
        try (Socket s = connect(fe)) {
            s.setSoTimeout((int) Duration.ofSeconds(5).toMillis());
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 400");
            return s.getLocalPort();
        }
    }

    /** The dump of the last capture shown: what follows its "  " line. */
    private static String dump(String out) {
        return out.substring(out.lastIndexOf("\n  \n") + 4);
    }
}
