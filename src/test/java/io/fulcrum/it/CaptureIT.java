package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Capture slots filled by rules ({@code declare capture}, {@code http-request capture}, {@code http-response capture},
 * {@code tcp-request content capture}, the {@code capture-req}/{@code capture-res} converters) next to header captures,
 * as the log line's %hr/%hs and the {@code capture.req.hdr}/{@code capture.res.hdr} fetches show them. The expected
 * lines are HAProxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CaptureIT {

    @Test
    void httpRulesFillSlotsBesideHeaderCaptures() throws Exception {
        int fe = freePort();
        String frontend = """
                capture request header Host len 5
                declare capture request len 8
                http-request capture req.hdr(x-a) len 4
                http-request capture path id 1
                http-request set-var(txn.c) str(conv),capture-req(3)
                declare capture request len 5
                capture response header X-Reply len 3
                declare capture response len 6
                http-response capture res.hdr(x-reply),lower id 1
                http-response set-header X-Seen "%[capture.req.hdr(0)]/%[capture.req.hdr(1)]/%[capture.req.hdr(2)]"
                log-format "%hr %hs %{+Q}hrl %[capture.req.method] %[capture.req.uri] %[capture.req.ver] %[capture.res.ver]"
                """;
        String backend = """
                http-request capture str(from-backend) id 3
                http-request capture str(nowhere) id 9
                server s1 127.0.0.1:%d
                """;
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok", "X-Reply: ABCDEFGH"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, backend.formatted(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange("GET /a/long/path?q=1 HTTP/1.1\r\nHost: example.com\r\nX-A: 123456\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.head().get("X-Seen")).isEqualTo("examp//a/long//1234");
            assertThat(logs.next()).isEqualTo("{examp|/a/long/|1234|from-} {ABC|abcdef} "
                    + "\"examp\" \"/a/long/\" \"1234\" \"from-\" GET /a/long/path?q=1 HTTP/1.1 HTTP/1.1\n");
        }
    }

    /** capture.req.uri is the captured target from its path on, as HAProxy's http_get_path() cuts it: none for '*'. */
    @Test
    void captureReqUriIsThePath() throws Exception {
        int fe = freePort();
        String frontend = "http-request return status 200 content-type text/plain lf-string \"[%[capture.req.uri]]\"";
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n").bodyText()).isEqualTo("[]");
            assertThat(c.exchange("GET http://h HTTP/1.1\r\nHost: h\r\n\r\n").bodyText()).isEqualTo("[]");
            assertThat(c.exchange("GET http://h:8080/p?x=1 HTTP/1.1\r\nHost: h:8080\r\n\r\n").bodyText())
                    .isEqualTo("[/p?x=1]");
            assertThat(c.exchange("GET /a?b HTTP/1.1\r\nHost: h\r\n\r\n").bodyText()).isEqualTo("[/a?b]");
        }
    }

    /** tcp-request content capture in a TCP frontend: its slot shows in %hr. */
    @Test
    void tcpContentCapture() throws Exception {
        int fe = freePort();
        String frontend = """
                tcp-request content capture src len 7
                tcp-request content capture str(abc) len 2
                log-format "%hr %hrl"
                """;
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, frontend, "server s1 127.0.0.1:" + origin.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("{127.0.0|ab} 127.0.0 ab\n");
        }
    }
}
