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
}
