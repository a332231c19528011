package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option http-buffer-request}: the server is connected only once the request's body is all in or fills the
 * buffer, within {@code timeout http-request} of the proxy that asks; a client expecting "100 Continue" is told to
 * go on by the proxy, which drops the Expect field. Requests without a body go at once.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpBufferRequestIT {

    private interface Exchanges {
        void run(HttpOrigin origin, HttpClientConn c) throws Exception;
    }

    /** Runs {@code exchanges} on a client connection to a proxy with these lines, whose origin answers "got N" for N body bytes. */
    private static void with(String frontend, String backend, Exchanges exchanges) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.readBody().reply(200, "got " + x.body.count()));
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, frontend, backend, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            exchanges.run(origin, c);
        }
    }

    @Test
    void serverConnectedOnceTheBodyIsIn() throws Exception {
        with("option http-buffer-request", "", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\n01234");
            Thread.sleep(500);
            assertThat(origin.accepted()).as("connections to the origin before the body is in").isZero();
            c.send("56789");
            assertThat(c.read().bodyText()).isEqualTo("got 10");
            // Chunked too; and a request without a body goes at once.
            c.send("POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
            Thread.sleep(300);
            assertThat(origin.requests()).hasSize(1);
            c.send("0\r\n\r\n");
            assertThat(c.read().bodyText()).isEqualTo("got 3");
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("got 0");
        });
    }

    /**
     * The request rules of the proxy that asks run once the body is in (HAProxy's body analyser comes before them):
     * req.body and req.body_param see it, sent in two parts.
     */
    @Test
    void rulesSeeTheBody() throws Exception {
        with("option http-buffer-request\nhttp-request set-header x-fe %[req.body_param(k)]/%[req.body_len]", "", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 9\r\n\r\nk=v");
            Thread.sleep(300);
            c.send("&k2=wx");
            assertThat(c.read().bodyText()).isEqualTo("got 9");
            assertThat(origin.nextRequest(5000).head().get("x-fe")).isEqualTo("v/9");
        });
        with("", "option http-buffer-request\nhttp-request set-header x-be %[req.body]", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n");
            Thread.sleep(300);
            c.send("1\r\nc\r\n0\r\n\r\n");
            assertThat(c.read().bodyText()).isEqualTo("got 3");
            assertThat(origin.nextRequest(5000).head().get("x-be")).isEqualTo("abc");
        });
    }

    /** A body larger than the buffer: the server is connected once the buffer is full, and gets it all. */
    @Test
    void aFullBufferIsEnough() throws Exception {
        with("option http-buffer-request", "", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 40000\r\n\r\n" + "a".repeat(20_000));
            assertThat(origin.nextHead(5000).startLine()).isEqualTo("POST / HTTP/1.1");
            c.send("b".repeat(20_000));
            assertThat(c.read().bodyText()).isEqualTo("got 40000");
        });
        with("option http-buffer-request", "", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 40000\r\n\r\n" + "a".repeat(14_000));
            Thread.sleep(500);
            assertThat(origin.accepted()).as("connections to the origin before the buffer is full").isZero();
            c.send("b".repeat(26_000));
            assertThat(c.read().bodyText()).isEqualTo("got 40000");
        });
    }

    @Test
    void continueAnsweredByTheProxy() throws Exception {
        with("", "option http-buffer-request", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\nExpect: 100-Continue\r\n\r\n");
            assertThat(c.readHead().raw()).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            c.send("abc");
            assertThat(c.read().bodyText()).isEqualTo("got 3");
            assertThat(origin.nextRequest(5000).head().has("expect")).isFalse();
            // Without a body there is nothing to go on with: the field is forwarded.
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\n\r\n").bodyText()).isEqualTo("got 0");
            assertThat(origin.nextRequest(5000).head().get("expect")).isEqualTo("100-continue");
        });
    }

    /** The wait is bounded by timeout http-request of the proxy that asks for it: then 408, and the close. */
    @Test
    void waitBoundedByTheAskingProxysRequestTimeout() throws Exception {
        with("option http-buffer-request\ntimeout http-request 700ms", "timeout http-request 30s", (origin, c) -> {
            long t0 = System.nanoTime();
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\n01234");
            Response r = c.read();
            assertThat(millisSince(t0, System.nanoTime())).isBetween(500L, 4000L);
            assertThat(r.status()).isEqualTo(408);
            assertThat(r.get("connection")).isEqualTo("close");
            c.awaitClosed(3000);
            assertThat(origin.accepted()).isZero();
        });
        with("timeout http-request 700ms", "option http-buffer-request\ntimeout http-request 30s", (origin, c) -> {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\n01234");
            c.assertSilent(1500, "waiting for the body under the backend's timeout");
            c.send("56789");
            assertThat(c.read().bodyText()).isEqualTo("got 10");
        });
    }

    /**
     * The wait for the body counts in TR, not Tw (under 100 ms here); a client that closes during it ends the wait, so the backend is
     * chosen and logged (CR); a 408 for a body that does not come is logged cR with TR -1. The option in the frontend
     * and in the backend alike; the same lines as HAProxy 2.6's (-Dit.proxy=haproxy).
     */
    @Test
    void theWaitIsLoggedInTR() throws Exception {
        int fe = freePort();
        int fe2 = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.readBody().reply(200, "ok"));
             FulcrumProcess proxy = serve("""
                     global
                         log stdout format raw local0
                     defaults
                         mode http
                         log global
                         option httplog
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                         timeout http-request 1s
                     frontend fe
                         bind 127.0.0.1:%d
                         option http-buffer-request
                         default_backend be1
                     frontend fe2
                         bind 127.0.0.1:%d
                         default_backend be2
                     backend be1
                         server s1 127.0.0.1:%3$d
                     backend be2
                         option http-buffer-request
                         server s1 127.0.0.1:%3$d
                     """.formatted(fe, fe2, origin.port()), fe)) {
            String post = "POST /x HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nab";
            for (int port : new int[] {fe, fe2}) {
                try (HttpClientConn c = HttpClientConn.open(port)) {
                    c.exchange(get("/")); // (a cold proxy may read the first request late: all of it at once)
                    c.send(post);
                    Thread.sleep(400);
                    assertThat(c.send("cde").read().status()).isEqualTo(200);
                }
                try (HttpClientConn c = HttpClientConn.open(port)) {
                    c.send(post);
                    Thread.sleep(400);
                }
                try (HttpClientConn c = HttpClientConn.open(port)) {
                    assertThat(c.send(post).read().status()).isEqualTo(408);
                }
            }
            String log = awaitPosts(proxy, 6);
            for (String be : new String[] {"fe be1", "fe2 be2"}) {
                assertThat(tr(log, " " + be + "/s1 (\\d+)/\\d{1,2}/\\d+/\\d+/\\d+ 200 .*\"POST ")).as(log).isGreaterThanOrEqualTo(300);
                assertThat(tr(log, " " + be + "/<NOSRV> (\\d+)/-1/-1/-1/\\d+ -1 0 - - CR-- ")).as(log).isGreaterThanOrEqualTo(300);
            }
            // (the frontend's wait comes before the backend's choice, the backend's after)
            assertThat(log.lines().filter(l -> l.matches(".* (fe fe|fe2 be2)/<NOSRV> -1/-1/-1/-1/\\d+ 408 \\d+ - - cR-- .*"))).hasSize(2);
        }
    }

    /** The TR of the one log line that {@code pattern} (its first group) matches. */
    private static long tr(String log, String pattern) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(log);
        assertThat(m.find()).as(pattern + " in " + log).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static String awaitPosts(FulcrumProcess proxy, int n) throws InterruptedException {
        for (int i = 0; i < 100 && proxy.stdout().lines().filter(l -> l.contains("\"POST ")).count() < n; i++) {
            Thread.sleep(50);
        }
        return proxy.stdout();
    }
}
