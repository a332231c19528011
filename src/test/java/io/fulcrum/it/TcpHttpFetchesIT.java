package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP fetches in a mode tcp frontend: in tcp-request content rules and use_backend they read the HTTP/1 request
 * head the held bytes start with, as HAProxy parses its buffer there. A condition on one waits for the whole head
 * while the inspect delay runs; bytes that are not HTTP (or a head the parser refuses) decide at once; a head larger
 * than the buffer (tune.bufsize less tune.maxrewrite) is not HTTP. The body is empty (HAProxy parses the headers
 * only). Also runs against HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpHttpFetchesIT {
    /** Decided well before the inspect delay's 3 s (a cold JVM on a loaded box may take a while). */
    private static final long AT_ONCE = 2000;
    private static final String VARS = "len path host meth url ver cnt base q cook up fhdr pathq body bsize first";

    /** A mode tcp frontend "ft" on port %d, logging to stdout; its format and rules follow. */
    private static final String FRONTEND = """
            defaults
                mode tcp
                timeout connect 2s
                timeout client 10s
                timeout server 10s
            frontend ft
                bind 127.0.0.1:%d
                log stdout format raw local0
            """;

    private static String config(int fe, int one, int two) {
        StringBuilder format = new StringBuilder();
        for (String v : VARS.split(" ")) {
            format.append(v).append("=%[var(sess.").append(v).append(")] ");
        }
        return (FRONTEND + """
                    log-format "%sbe=%%b"
                    tcp-request inspect-delay 3s
                    tcp-request content set-var(sess.len) req.len if { path -m found }
                    tcp-request content set-var(sess.path) path
                    tcp-request content set-var(sess.host) req.hdr(host)
                    tcp-request content set-var(sess.meth) method
                    tcp-request content set-var(sess.url) url
                    tcp-request content set-var(sess.ver) req.ver
                    tcp-request content set-var(sess.cnt) req.hdr_cnt(x)
                    tcp-request content set-var(sess.base) base
                    tcp-request content set-var(sess.q) query
                    tcp-request content set-var(sess.cook) req.cook(a)
                    tcp-request content set-var(sess.up) url_param(u)
                    tcp-request content set-var(sess.fhdr) req.fhdr(x)
                    tcp-request content set-var(sess.pathq) pathq
                    tcp-request content set-var(sess.body) req.body,length
                    tcp-request content set-var(sess.bsize) req.body_size
                    tcp-request content set-var(sess.first) http_first_req
                    use_backend two if { path_beg /two }
                    default_backend one
                backend one
                    server s1 127.0.0.1:%d
                backend two
                    server s1 127.0.0.1:%d
                """).formatted(fe, format, one, two);
    }

    @Test
    void httpFetchesReadTheHeldRequestHead() throws Exception {
        int fe = freePort();
        try (Origin one = Origin.start(Origin.ECHO);
             Origin two = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, one.port(), two.port()), fe)) {
            String full = "GET /two/x?u=1&b=2 HTTP/1.1\r\nHost: example\r\nX: a\r\nX: b,c\r\nCookie: a=1\r\nContent-Length: 3\r\n\r\nabc";
            exchange(fe, full, null);
            assertThat(awaitLine(proxy, 1)).isEqualTo("len=95 path=/two/x host=example meth=GET url=/two/x?u=1&b=2 ver=1.1 cnt=3 "
                    + "base=example/two/x q=u=1&b=2 cook=1 up=1 fhdr=b,c pathq=/two/x?u=1&b=2 body=0 bsize=0 first=1 be=two");

            // a head in two parts: the condition waits for the second
            assertThat(exchange(fe, "GET /two/y HTTP/1.1\r\nHost: ex", "ample\r\n\r\n")).isLessThan(AT_ONCE);
            assertThat(awaitLine(proxy, 2)).isEqualTo("len=38 path=/two/y host=example meth=GET url=/two/y ver=1.1 cnt=0 "
                    + "base=example/two/y q=- cook=- up=- fhdr=- pathq=/two/y body=0 bsize=0 first=1 be=two");

            // still incomplete when the delay ends: no sample, at the delay's end
            assertThat(exchange(fe, "GET /two HTTP/1.1\r\nHost: ex", null)).isGreaterThanOrEqualTo(2500);
            assertThat(awaitLine(proxy, 3)).isEqualTo(NONE + "be=one");

            // not HTTP (a TLS hello), and a head the parser refuses: decided at once
            assertThat(exchange(fe, "\u0016\u0003\u0001\u0000\u0005hello", null)).isLessThan(AT_ONCE);
            assertThat(awaitLine(proxy, 4)).isEqualTo(NONE + "be=one");
            assertThat(exchange(fe, "GET /two HTTP/1.1\r\nBad Header: x\r\n\r\n", null)).isLessThan(AT_ONCE);
            assertThat(awaitLine(proxy, 5)).isEqualTo(NONE + "be=one");

            assertThat(exchange(fe, "GET /a HTTP/1.0\r\n\r\n", null)).isLessThan(AT_ONCE);
            assertThat(awaitLine(proxy, 6)).isEqualTo("len=19 path=/a host=- meth=GET url=/a ver=1.0 cnt=0 base=/a q=- cook=- up=- "
                    + "fhdr=- pathq=/a body=0 bsize=0 first=1 be=one");
        }
    }

    private static final String NONE = "len=- path=- host=- meth=- url=- ver=- cnt=- base=- q=- cook=- up=- fhdr=- pathq=- body=- bsize=- first=1 ";

    /** The head must fit in the buffer HAProxy's rules see (tune.bufsize less tune.maxrewrite: 896 bytes here). */
    @Test
    void aHeadLargerThanTheBufferIsNotHttp() throws Exception {
        int fe = freePort();
        String config = """
                global
                    tune.bufsize 1024
                    tune.maxrewrite 128
                """ + FRONTEND + """
                    log-format "len=%%[var(sess.len)] http=%%[var(sess.http)] path=%%[var(sess.path)] ts=%%ts"
                    tcp-request inspect-delay 5s
                    tcp-request content set-var(sess.len) req.len
                    tcp-request content set-var(sess.http) req.proto_http if HTTP
                    tcp-request content set-var(sess.path) path
                    tcp-request content reject unless HTTP
                    default_backend one
                backend one
                    server s1 127.0.0.1:%d
                """;
        try (Origin one = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config.formatted(fe, one.port()), fe)) {
            assertThat(exchange(fe, head(797), null)).isLessThan(AT_ONCE);
            assertThat(awaitLine(proxy, 1)).isEqualTo("len=797 http=1 path=/p ts=--");
            try (Socket s = connect(fe)) {
                long start = System.nanoTime();
                s.getOutputStream().write(head(997).getBytes(StandardCharsets.US_ASCII));
                assertThat(s.getInputStream().read()).isEqualTo(-1); // rejected at once: the buffer is full
                assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(AT_ONCE);
            }
            assertThat(awaitLine(proxy, 2)).isEqualTo("len=896 http=- path=- ts=PR");
        }
    }

    private static String head(int size) {
        return "GET /p HTTP/1.1\r\nHost: a\r\nX-Pad: " + "x".repeat(size - 37) + "\r\n\r\n";
    }

    /**
     * Sends {@code first}, then {@code second} (if any) 200 ms later, reads the echo of both and closes; the time
     * in ms from the first byte sent to the first byte of the echo, less the 200 ms pause.
     */
    private static long exchange(int port, String first, String second) throws Exception {
        try (Socket s = connect(port)) {
            OutputStream out = s.getOutputStream();
            long start = System.nanoTime();
            out.write(first.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (second != null) {
                Thread.sleep(200);
                out.write(second.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            int b = s.getInputStream().read();
            long took = (System.nanoTime() - start) / 1_000_000 - (second != null ? 200 : 0);
            assertThat(b).isNotEqualTo(-1);
            s.getInputStream().readNBytes(first.length() + (second == null ? 0 : second.length()) - 1);
            return took;
        }
    }

    /** Line {@code n} of the log, once it is written. */
    private static String awaitLine(FulcrumProcess p, int n) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<String> lines = p.stdout().lines().filter(l -> l.contains("be=") || l.contains("ts=")).toList();
            if (lines.size() >= n) {
                return lines.get(n - 1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no log line " + n + " in " + p.stdout());
    }
}
