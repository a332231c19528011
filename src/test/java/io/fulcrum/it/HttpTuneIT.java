package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpErrorsIT.E400;
import static io.fulcrum.it.HttpErrorsIT.E502;
import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tune.bufsize}, {@code tune.maxrewrite} and {@code tune.http.maxhdr} bound the heads the proxy takes: a
 * request head must fit in {@code bufsize - maxrewrite} (maxrewrite is cut to half the buffer) and have fewer than
 * {@code maxhdr} lines, else 400; a response head likewise, else 502. HAProxy counts a head in its internal form,
 * a little larger than the bytes received (docs/http1-strictness.md): the sizes here keep clear of the edge.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpTuneIT {

    /** A request head of {@code size} bytes with one large field. */
    private static String head(int size) {
        String start = "GET / HTTP/1.1\r\nHost: test\r\nX-Pad: ";
        return start + "p".repeat(size - start.length() - 4) + "\r\n\r\n";
    }

    /** A GET with {@code n} fields. */
    private static String fields(int n) {
        StringBuilder b = new StringBuilder("GET / HTTP/1.1\r\nHost: test\r\n");
        for (int i = 1; i < n; i++) {
            b.append("X-").append(i).append(": v\r\n");
        }
        return b.append("\r\n").toString();
    }

    /** The status of the answer to {@code request}, on a proxy with these global lines. */
    private static String answer(String global, String request) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve("global\n" + global.indent(4) + config("127.0.0.1:" + fe, "", "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(request);
            return c.read().text();
        }
    }

    @Test
    void bufsizeLessMaxrewriteBoundsTheRequestHead() throws Exception {
        // 1000 is rounded up to 1008; maxrewrite's default (1024) is cut to 504.
        assertThat(answer("tune.bufsize 1000", head(380))).endsWith("ok");
        assertThat(answer("tune.bufsize 1000", head(520))).isEqualTo(E400);
        // No room kept for rewrites: the whole buffer.
        assertThat(answer("tune.bufsize 1024\ntune.maxrewrite 0", head(900))).endsWith("ok");
        assertThat(answer("tune.bufsize 1024\ntune.maxrewrite 0", head(1100))).isEqualTo(E400);
        // A maxrewrite over half the buffer is cut to half (it would leave 1384 bytes of 16384 else).
        assertThat(answer("tune.maxrewrite 15000", head(7000))).endsWith("ok");
        assertThat(answer("tune.maxrewrite 15000", head(9000))).isEqualTo(E400);
        assertThat(answer("tune.bufsize 65536", head(40_000))).endsWith("ok");
    }

    @Test
    void maxhdrCountsTheStartLine() throws Exception {
        assertThat(answer("tune.http.maxhdr 8", fields(6))).endsWith("ok");
        assertThat(answer("tune.http.maxhdr 8", fields(7))).endsWith("ok");
        assertThat(answer("tune.http.maxhdr 8", fields(8))).isEqualTo(E400);
        assertThat(answer("tune.http.maxhdr 300", fields(250))).endsWith("ok");
    }

    @Test
    void responsesAreBoundToo() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send(x.target().equals("/big")
                 ? "HTTP/1.1 200 OK\r\nX-Pad: " + "p".repeat(700) + "\r\nContent-Length: 2\r\n\r\nok"
                 : "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve("global\n    tune.bufsize 1024\n    tune.http.maxhdr 6\n"
                     + config("127.0.0.1:" + fe, "", "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(HttpKit.get("/big")).text()).isEqualTo(E502);
            assertThat(c.exchange(HttpKit.get("/many")).text()).isEqualTo(E502);
        }
    }
}
