package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpOrigin.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Fields that concern one connection only (RFC 9110 7.6.1) do not cross the proxy, and a request framed both
 * by Content-Length and Transfer-Encoding is taken as chunked. HAProxy 2.6 removes only "close" and
 * "keep-alive" from Connection; where Fulcrum removes more (docs/http1-strictness.md), the test says so and is
 * skipped against HAProxy. The rules see them as HAProxy's do (those tests pass against HAProxy too).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpHopByHopIT {

    /** What every proxy removes: Connection's close/keep-alive, Keep-Alive... as far as HAProxy goes too. */
    @Test
    void connectionAndKeepAliveNotForwarded() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /1 HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\nX-End: 1\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            Received r = origin.nextRequest(5000);
            assertThat(r.head().has("connection")).as(r.head().raw()).isFalse();
            assertThat(r.head().get("x-end")).isEqualTo("1");
        }
    }

    @Test
    void requestHopByHopFieldsNotForwarded() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 forwards these (docs/http1-strictness.md, hop-by-hop fields)");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /1 HTTP/1.1\r\nHost: test\r\nConnection: keep-alive, X-Secret , x-other\r\nX-Secret: s\r\n"
                    + "X-Other: o\r\nKeep-Alive: timeout=5\r\nProxy-Connection: keep-alive\r\nTE: trailers, deflate;q=0.5\r\n"
                    + "Upgrade: h2c\r\nX-Kept: k\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            Received r = origin.nextRequest(5000);
            assertThat(r.head().names()).as(r.head().raw())
                    .doesNotContain("connection", "x-secret", "x-other", "keep-alive", "proxy-connection", "upgrade")
                    .contains("host", "x-kept");
            assertThat(r.head().all("te")).containsExactly("trailers");

            // TE without trailers goes entirely.
            c.send("GET /2 HTTP/1.1\r\nHost: test\r\nTE: gzip\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            assertThat(origin.nextRequest(5000).head().has("te")).isFalse();

            // Connection cannot remove the fields that frame or route the message.
            c.send("POST /3 HTTP/1.1\r\nHost: test\r\nConnection: host, content-length\r\nContent-Length: 3\r\n\r\nabc");
            assertThat(c.read().status()).isEqualTo(200);
            Received post = origin.nextRequest(5000);
            assertThat(post.head().get("host")).isEqualTo("test");
            assertThat(post.bodyLength()).isEqualTo(3);
        }
    }

    @Test
    void responseHopByHopFieldsNotForwarded() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 forwards these (docs/http1-strictness.md, hop-by-hop fields)");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nConnection: keep-alive, X-Internal\r\n"
                 + "X-Internal: secret\r\nKeep-Alive: timeout=5, max=100\r\nProxy-Connection: keep-alive\r\nUpgrade: h2c\r\n"
                 + "X-Public: p\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.bodyText()).isEqualTo("ok");
            assertThat(r.head().names()).as(r.head().raw())
                    .doesNotContain("connection", "x-internal", "keep-alive", "proxy-connection", "upgrade")
                    .contains("x-public");
        }
    }

    /** HAProxy's own part of the same: close/keep-alive leave Connection, and a response keeps the connection. */
    @Test
    void responseConnectionKeepAliveNotForwarded() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.head().has("connection")).as(r.head().raw()).isFalse();
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("ok");
        }
    }

    /**
     * Content-Length and Transfer-Encoding together (RFC 9112 6.3): chunked wins, Content-Length does not reach
     * the origin, and the client connection is closed after the response (as HAProxy does).
     */
    @Test
    void contentLengthAndChunkedRequest() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.readBody().reply(200, "got " + x.body.count()));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST /smuggle HTTP/1.1\r\nHost: test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "a\r\n0123456789\r\n0\r\n\r\n");
            Response r = c.read();
            assertThat(r.bodyText()).isEqualTo("got 10");
            Received got = origin.nextRequest(5000);
            assertThat(got.head().has("content-length")).as(got.head().raw()).isFalse();
            assertThat(got.head().get("transfer-encoding")).isEqualToIgnoringCase("chunked");
            assertThat(got.bodyLength()).isEqualTo(10);
            c.awaitClosed(3000);
            assertThat(origin.requests(1)).hasSize(1);
        }
    }

    /**
     * The same framing in a response: the body is the chunked one, nothing of it is left to be taken for a
     * next response.
     */
    @Test
    void contentLengthAndChunkedResponse() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                 + "6\r\nchunky\r\n0\r\n\r\n"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.bodyText()).isEqualTo("chunky");
            assertThat(r.head().has("content-length")).as(r.head().raw()).isFalse();
        }
    }

    /**
     * The rules see the hop-by-hop fields as HAProxy's do: Connection without its close and keep-alive tokens, the
     * others as they came (the request's and the response's), though they are not forwarded.
     */
    @Test
    void rulesSeeHopByHopFields() throws Exception {
        int fe = freePort();
        String seen = "c=%[req.hdr(connection)]|ka=%[req.hdr(keep-alive)]|te=%[req.hdr(te)]|pc=%[req.hdr(proxy-connection)]"
                + "|up=%[req.hdr(upgrade)]|x=%[req.hdr(x-foo)]|n=%[req.hdr_cnt]";
        String seenRes = "c=%[res.hdr(connection)]|ka=%[res.hdr(keep-alive)]|te=%[res.hdr(te)]|up=%[res.hdr(upgrade)]|n=%[res.hdr_cnt]";
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                 + "Connection: keep-alive, X-Bar\r\nKeep-Alive: timeout=9\r\nX-Bar: 1\r\nTE: x\r\nUpgrade: foo\r\n\r\nok"));
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "http-request set-header X-Seen \"" + seen + "\"\n"
                     + "http-response set-header X-Seen-Res \"" + seenRes + "\"", "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, X-Foo, TE\r\nKeep-Alive: timeout=5\r\n"
                    + "TE: trailers, gzip\r\nX-Foo: bar\r\nProxy-Connection: keep-alive\r\nUpgrade: h2c\r\n\r\n");
            Response r = c.read();
            assertThat(r.head().get("x-seen-res")).as(r.head().raw()).isEqualTo("c=X-Bar|ka=timeout=9|te=x|up=foo|n=6");
            Received got = origin.nextRequest(5000);
            assertThat(got.head().get("x-seen")).as(got.head().raw())
                    .isEqualTo("c=TE|ka=timeout=5|te=gzip|pc=keep-alive|up=h2c|x=bar|n=9");
        }
    }

    /**
     * A Connection field that a rule sets saying close ends that hop's connection after the exchange, as in HAProxy:
     * the client's for a response rule (the next request finds it closed), the server's for a request rule.
     */
    @Test
    void ruleSetConnectionCloseEndsTheConnection() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "http-request set-header Connection close\n"
                     + "http-response set-header Connection close", "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response r = c.exchange(get("/"));
            assertThat(r.head().get("connection")).as(r.head().raw()).isEqualToIgnoringCase("close");
            assertThat(origin.nextRequest(5000).head().get("connection")).isEqualToIgnoringCase("close");
            c.awaitClosed(3000);
        }
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "http-request set-header Connection close", "",
                     origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/1")).bodyText()).isEqualTo("ok");
            assertThat(c.exchange(get("/2")).bodyText()).isEqualTo("ok");
            assertThat(origin.accepted()).as("a new server connection for each request").isEqualTo(2);
        }
    }

    /** The proxy says what its own hop wants: an HTTP/1.0 request goes to the server with keep-alive asked. */
    @Test
    void http10RequestAsksServerForKeepAlive() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.0\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(200);
            Received r = origin.nextRequest(5000);
            assertThat(r.head().startLine()).isEqualTo("GET / HTTP/1.0");
            assertThat(r.head().connectionHas("keep-alive")).as(r.head().raw()).isTrue();
        }
    }
}
