package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The errors the proxy answers itself, byte for byte as HAProxy 2.6 sends them (its built-in pages, lower-case
 * header names when they go through its HTTP/1 output), and what becomes of the client connection after each.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpErrorsIT {

    static final String E503 = "HTTP/1.1 503 Service Unavailable\r\n"
            + "content-length: 107\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>503 Service Unavailable</h1>\n"
            + "No server is available to handle this request.\n"
            + "</body></html>\n";

    /** The page of {@code monitor-uri}. */
    static final String E200 = "HTTP/1.1 200 OK\r\n"
            + "content-length: 58\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>200 OK</h1>\n"
            + "Service ready.\n"
            + "</body></html>\n";

    static final String E403 = "HTTP/1.1 403 Forbidden\r\n"
            + "content-length: 93\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>403 Forbidden</h1>\n"
            + "Request forbidden by administrative rules.\n"
            + "</body></html>\n";

    static final String E502 = "HTTP/1.1 502 Bad Gateway\r\n"
            + "content-length: 107\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>502 Bad Gateway</h1>\n"
            + "The server returned an invalid or incomplete response.\n"
            + "</body></html>\n";

    static final String E504 = "HTTP/1.1 504 Gateway Time-out\r\n"
            + "content-length: 92\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>504 Gateway Time-out</h1>\n"
            + "The server didn't respond in time.\n"
            + "</body></html>\n";

    /** The 400 and 408 that HAProxy's HTTP/1 layer sends as stored, before any request exists. */
    static final String E400 = "HTTP/1.1 400 Bad request\r\n"
            + "Content-length: 90\r\n"
            + "Cache-Control: no-cache\r\n"
            + "Connection: close\r\n"
            + "Content-Type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>400 Bad request</h1>\n"
            + "Your browser sent an invalid request.\n"
            + "</body></html>\n";

    static final String E408 = "HTTP/1.1 408 Request Time-out\r\n"
            + "Content-length: 110\r\n"
            + "Cache-Control: no-cache\r\n"
            + "Connection: close\r\n"
            + "Content-Type: text/html\r\n"
            + "\r\n"
            + "<html><body><h1>408 Request Time-out</h1>\n"
            + "Your browser didn't send a complete request in time.\n"
            + "</body></html>\n";

    /** With {@code connection: close} added by HTTP/1 output (the client asked to close). */
    static String withClose(String page) {
        int blank = page.indexOf("\r\n\r\n");
        return page.substring(0, blank) + "\r\nconnection: close" + page.substring(blank);
    }

    /** Connection refused, no retry: 503 at once; the client's connection stays usable (HAProxy keeps it). */
    @Test
    void refusedIs503AndTheConnectionStays() throws Exception {
        int fe = freePort();
        int be = FulcrumProcess.refusedPort();
        try (FulcrumProcess proxy = serve(config(fe, be, "retries 0"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < 3; i++) {
                Response r = c.exchange(get("/"));
                assertThat(r.text()).isEqualTo(E503);
            }
            // HEAD: the same head, without the body.
            c.send("HEAD / HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(c.read("HEAD").head().raw()).isEqualTo(E503.substring(0, E503.indexOf("\r\n\r\n") + 4));
            c.assertSilent(200, "after the HEAD 503");
            // A client that asks to close is told so.
            c.send("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            assertThat(c.read().text()).isEqualTo(withClose(E503));
            c.awaitClosed(3000);
        }
    }

    /** An HTTP/1.0 client keeping its connection alive is told keep-alive in the 503. */
    @Test
    void refusedIs503ForHttp10() throws Exception {
        int fe = freePort();
        int be = FulcrumProcess.refusedPort();
        try (FulcrumProcess proxy = serve(config(fe, be, "retries 0"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            Response r = c.read();
            int blank = E503.indexOf("\r\n\r\n");
            assertThat(r.text()).isEqualTo(E503.substring(0, blank) + "\r\nconnection: keep-alive" + E503.substring(blank));
            c.send("GET / HTTP/1.0\r\n\r\n");
            assertThat(c.read().text()).isEqualTo(withClose(E503));
            c.awaitClosed(3000);
        }
    }

    /** retries: each failed attempt but the last waits one second before the next one. */
    @Test
    void refusedWithRetries() throws Exception {
        int fe = freePort();
        int be = FulcrumProcess.refusedPort();
        try (FulcrumProcess proxy = serve(config(fe, be, "retries 2"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            long t0 = System.nanoTime();
            Response r = c.exchange(get("/"));
            long took = millisSince(t0, System.nanoTime());
            assertThat(r.text()).isEqualTo(E503);
            assertThat(took).isBetween(1800L, 5000L);
            // Still usable after the retries.
            assertThat(c.exchange(get("/")).status()).isEqualTo(503);
        }
    }

    /** A server that comes back: the retry finds it. */
    @Test
    void retryFindsTheServerBack() throws Exception {
        int fe = freePort();
        int be = freePort();
        try (FulcrumProcess proxy = serve(config(fe, be, "retries 3"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            Thread.sleep(500); // the first attempt failed; the next is after 1 s
            try (HttpOrigin origin = startOn(be)) {
                Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyText()).isEqualTo("back");
            }
        }
    }

    private static HttpOrigin startOn(int port) throws Exception {
        // HttpOrigin takes any free port; this one must be the backend's: bind it through Origin.
        return HttpOrigin.startOn(port, x -> x.reply(200, "back"));
    }

    /** The server closes without answering the first request: 502; the connection stays (HAProxy keeps it). */
    @Test
    void serverClosesWithoutAnswer() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/close")) {
                     x.close();
                 } else {
                     x.reply(200, "fine");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/close")).text()).isEqualTo(E502);
            assertThat(c.exchange(get("/ok")).bodyText()).isEqualTo("fine");
        }
    }

    /**
     * The same on a request that is not the connection's first: HAProxy closes the client connection without
     * an answer (http_wait_for_response: TX_NOT_FIRST, "abort_keep_alive"), so that the client retries.
     */
    @Test
    void serverClosesWithoutAnswerOnANextRequest() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/close")) {
                     x.close();
                 } else {
                     x.reply(200, "fine");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/ok")).bodyText()).isEqualTo("fine");
            c.send(get("/close"));
            c.awaitClosed(3000);
        }
    }

    /** The server resets the connection instead of answering: 502 as well. */
    @Test
    void serverResetsWithoutAnswer() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(HttpOrigin.Exchange::reset);
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).text()).isEqualTo(E502);
        }
    }

    /** Garbage instead of a response: 502, and the client's connection goes on. */
    @Test
    void serverAnswersGarbage() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/garbage")) {
                     x.send("SSH-2.0-OpenSSH_9.2\r\n\r\n");
                     x.close();
                 } else {
                     x.reply(200, "fine");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/garbage")).text()).isEqualTo(E502);
            assertThat(c.exchange(get("/ok")).bodyText()).isEqualTo("fine");
            // Not the first request: garbage is still a 502 (it is not a silent close).
            assertThat(c.exchange(get("/garbage")).text()).isEqualTo(E502);
        }
    }

    /** A response head cut by the close: 502. */
    @Test
    void serverClosesInsideTheHead() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Le");
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).text()).isEqualTo(E502);
        }
    }

    /**
     * A body cut by the close: the head was forwarded, nothing can be said any more; the client's connection
     * is closed before the announced length arrived.
     */
    @Test
    void serverClosesInsideTheBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this");
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            HttpWire.Head h = c.readHead();
            assertThat(HttpWire.status(h)).isEqualTo(200);
            byte[] got = c.in().readNBytes(9);
            assertThat(HttpWire.text(got)).isEqualTo("only this");
            c.awaitClosed(3000);
        }
    }

    /** timeout server: 504 after about that long without a response; the client's connection goes on. */
    @Test
    void serverTooSlowIs504() throws Exception {
        int fe = freePort();
        CountDownLatch release = new CountDownLatch(1);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/slow")) {
                     release.await(20, TimeUnit.SECONDS);
                 } else {
                     x.reply(200, "fast");
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout server 500ms"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            long t0 = System.nanoTime();
            Response r = c.exchange(get("/slow"));
            long took = millisSince(t0, System.nanoTime());
            assertThat(r.text()).isEqualTo(E504);
            assertThat(took).isBetween(400L, 3000L);
            release.countDown();
            assertThat(c.exchange(get("/fast")).bodyText()).isEqualTo("fast");
        }
    }

    /** timeout server also bounds a response whose body stops coming: the connection is closed. */
    @Test
    void serverStallsInsideTheBody() throws Exception {
        int fe = freePort();
        CountDownLatch release = new CountDownLatch(1);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nstart");
                 release.await(20, TimeUnit.SECONDS);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout server 500ms"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            assertThat(HttpWire.status(c.readHead())).isEqualTo(200);
            assertThat(HttpWire.text(c.in().readNBytes(5))).isEqualTo("start");
            long t0 = System.nanoTime();
            c.awaitClosed(5000);
            assertThat(millisSince(t0, System.nanoTime())).isBetween(200L, 3000L);
            release.countDown();
        }
    }

    /** timeout http-request: a head that does not complete in time gets the 408 page as stored, then the close. */
    @Test
    void slowHeadIs408() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout http-request 500ms"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            long t0 = System.nanoTime();
            c.send("GET / HTTP/1.1\r\nHost: te");
            Thread.sleep(100);
            c.send("st\r\nX-Slow: ");
            Response r = c.read();
            long took = millisSince(t0, System.nanoTime());
            assertThat(r.text()).isEqualTo(E408);
            assertThat(took).isBetween(400L, 3000L);
            c.awaitClosed(3000);
            assertThat(origin.accepted()).isZero();
        }
    }

    /** timeout http-request also bounds a head that trickles in byte by byte: it measures the head, not silence. */
    @Test
    void tricklingHeadIs408() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout http-request 800ms"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            long t0 = System.nanoTime();
            CompletableFuture<Response> response = CompletableFuture.supplyAsync(() -> {
                try {
                    return c.read();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            String head = "GET / HTTP/1.1\r\nHost: test\r\nX-Long: " + "x".repeat(100);
            for (int i = 0; i < head.length() && !response.isDone(); i++) {
                try {
                    c.send(head.substring(i, i + 1));
                } catch (java.io.IOException e) {
                    break;
                }
                Thread.sleep(50);
            }
            Response r = response.get(5, TimeUnit.SECONDS);
            assertThat(r.text()).isEqualTo(E408);
            assertThat(millisSince(t0, System.nanoTime())).isBetween(700L, 3000L);
        }
    }

    /** timeout http-keep-alive: an idle connection after a response is closed silently after about that long. */
    @Test
    void idleKeepAliveConnectionClosed() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hi");
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout http-keep-alive 500ms\ntimeout http-request 5s"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("hi");
            long t0 = System.nanoTime();
            c.awaitClosed(4000);
            assertThat(millisSince(t0, System.nanoTime())).isBetween(400L, 3000L);
        }
    }

    /** Requests sent within timeout http-keep-alive keep the connection going past it. */
    @Test
    void keepAliveTimeoutIsPerIdlePeriod() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hi");
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout http-keep-alive 600ms\ntimeout http-request 5s"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < 5; i++) {
                assertThat(c.exchange(get("/")).bodyText()).isEqualTo("hi");
                Thread.sleep(300);
            }
        }
    }

    /** A malformed request: the 400 page as stored, then the close; another client is not disturbed. */
    @Test
    void malformedRequestIs400AndOthersGoOn() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hi");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn other = HttpClientConn.open(fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(other.exchange(get("/")).bodyText()).isEqualTo("hi");
            c.send("GET / HTTP/1.1\r\nHost: test\r\nBad Field: x\r\n\r\n");
            assertThat(c.read().text()).isEqualTo(E400);
            c.awaitClosed(3000);
            assertThat(other.exchange(get("/")).bodyText()).isEqualTo("hi");
            try (HttpClientConn third = HttpClientConn.open(fe)) {
                third.send("NOT HTTP AT ALL\r\n\r\n");
                assertThat(third.read().text()).isEqualTo(E400);
                third.awaitClosed(3000);
            }
            assertThat(other.exchange(get("/")).bodyText()).isEqualTo("hi");
            assertThat(origin.requests(3)).hasSize(3);
        }
    }

    /** A malformed request after a good one on the same connection: the good one is answered, then 400. */
    @Test
    void malformedPipelinedRequest() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hi");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/") + "GET / HTTP/1.1\r\nContent-Length: x\r\nHost: test\r\n\r\n");
            assertThat(c.read().bodyText()).isEqualTo("hi");
            assertThat(c.read().text()).isEqualTo(E400);
            c.awaitClosed(3000);
        }
    }

    /** A backend without any server: 503 at once, and the connection stays. */
    @Test
    void backendWithoutServerIs503() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend fe
                         bind 127.0.0.1:%d
                         default_backend empty
                     backend empty
                     """.formatted(fe), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).text()).isEqualTo(E503);
            assertThat(c.exchange(get("/")).text()).isEqualTo(E503);
        }
    }

    /** A response head larger than the buffer (tune.bufsize - tune.maxrewrite): 502. */
    @Test
    void responseHeadTooLargeIs502() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nX-Big: " + "b".repeat(20_000)
                 + "\r\nContent-Length: 2\r\n\r\nok"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).text()).isEqualTo(E502);
        }
    }

    /** A request head larger than the buffer: 400 and the close; nothing reaches the origin. */
    @Test
    void requestHeadTooLargeIs400() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET / HTTP/1.1\r\nHost: test\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
            assertThat(c.read().text()).isEqualTo(E400);
            c.awaitClosed(3000);
            assertThat(origin.accepted()).isZero();
        }
    }
}
