package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import io.fulcrum.it.HttpOrigin.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Connection persistence on both sides: keep-alive (HTTP/1.1 and 1.0), {@code Connection: close},
 * {@code option http-server-close} and {@code option httpclose}, and pipelined requests. The origin counts
 * the connections it accepted and numbers the requests on each.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpKeepAliveIT {

    /** Answers with "connection#index target", so that a response tells which connection carried it. */
    private static HttpOrigin origin() throws Exception {
        return HttpOrigin.start(x -> x.reply(200, x.connection + "#" + x.index + " " + x.target()));
    }

    @Test
    void sequentialRequestsShareOneConnectionEachSide() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 10; i++) {
                Response r = c.exchange(get("/r" + i));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.head().connectionHas("close")).isFalse();
                assertThat(r.bodyText()).isEqualTo("1#" + i + " /r" + i);
            }
            assertThat(origin.accepted()).isEqualTo(1);
            // The origin saw no connection: close (keep-alive is HTTP/1.1's default).
            for (Received r : origin.requests(10)) {
                assertThat(r.head().connectionHas("close")).isFalse();
            }
        }
    }

    /** An HTTP/1.0 client asking for keep-alive keeps its connection, and is told so. */
    @Test
    void http10KeepAlive() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 3; i++) {
                c.send("GET /old" + i + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                Response r = c.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.head().connectionHas("keep-alive")).as(r.head().raw()).isTrue();
                assertThat(r.bodyText()).isEqualTo("1#" + i + " /old" + i);
            }
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** An HTTP/1.0 client that does not ask for keep-alive gets its response and the close. */
    @Test
    void http10WithoutKeepAliveCloses() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /old HTTP/1.0\r\n\r\n");
            Response r = c.read();
            assertThat(r.bodyText()).isEqualTo("1#1 /old");
            assertThat(r.head().connectionHas("keep-alive")).isFalse();
            c.awaitClosed(3000);
        }
    }

    /** Connection: close from the client: the response comes, then the close; the server connection may stay. */
    @Test
    void clientConnectionCloseClosesAfterTheResponse() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/a")).bodyText()).isEqualTo("1#1 /a");
                c.send("GET /b HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
                Response r = c.read();
                assertThat(r.bodyText()).isEqualTo("1#2 /b");
                assertThat(r.head().connectionHas("close")).as(r.head().raw()).isTrue();
                c.awaitClosed(3000);
            }
            // The origin was not told to close: Connection is hop-by-hop.
            assertThat(origin.requests(2).get(1).head().connectionHas("close")).isFalse();
        }
    }

    /** option http-server-close: one server connection per request, closed after it; the client's stays. */
    @Test
    void httpServerClose() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option http-server-close"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 4; i++) {
                Response r = c.exchange(get("/s" + i));
                assertThat(r.bodyText()).isEqualTo(i + "#1 /s" + i);
                assertThat(r.head().connectionHas("close")).isFalse();
            }
            assertThat(origin.accepted()).isEqualTo(4);
            for (Received r : origin.requests(4)) {
                assertThat(r.head().connectionHas("close")).as(r.head().raw()).isTrue();
            }
            // The server connections do not stay open behind the client's.
            assertThat(origin.awaitNoOpenConnection(3000)).as("server connections closed").isTrue();
        }
    }

    /** option http-pretend-keepalive: the server is not told, but its connection still closes after each response. */
    @Test
    void httpPretendKeepAlive() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option http-server-close\n    option http-pretend-keepalive"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 2; i++) {
                assertThat(c.exchange(get("/p" + i)).bodyText()).isEqualTo(i + "#1 /p" + i);
            }
            assertThat(c.exchange("GET /old HTTP/1.0\r\n\r\n").bodyText()).isEqualTo("3#1 /old");
            List<Received> got = origin.requests(3);
            assertThat(got.get(0).head().connectionHas("close")).as(got.get(0).head().raw()).isFalse();
            assertThat(got.get(2).head().connectionHas("keep-alive")).as("HTTP/1.0: " + got.get(2).head().raw()).isTrue();
            assertThat(origin.awaitNoOpenConnection(3000)).as("server connections closed").isTrue();
        }
    }

    /**
     * option idle-close-on-response: at a soft stop (SIGUSR1) an idle keep-alive connection is not closed; its next
     * request is answered with Connection: close, then it closes. Without the option it closes at once.
     */
    @Test
    void idleCloseOnResponse() throws Exception {
        for (boolean option : new boolean[] {true, false}) {
            int fe = freePort();
            try (HttpOrigin origin = origin();
                 FulcrumProcess proxy = serve(config(fe, origin.port(), option ? "option idle-close-on-response" : ""), fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/before")).status()).isEqualTo(200);
                proxy.signal("USR1");
                if (option) {
                    Thread.sleep(500);
                    Response r = c.exchange(get("/last"));
                    assertThat(r.bodyText()).endsWith(" /last");
                    assertThat(r.head().connectionHas("close")).as(r.head().raw()).isTrue();
                }
                c.awaitClosed(3000);
                assertThat(proxy.awaitExit(java.time.Duration.ofSeconds(10))).as("the stopped process's exit").isZero();
            }
        }
    }

    /** option httpclose: both connections closed after the response. */
    @Test
    void httpClose() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option httpclose"), fe)) {
            for (int i = 1; i <= 2; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    Response r = c.exchange(get("/c" + i));
                    assertThat(r.bodyText()).isEqualTo(i + "#1 /c" + i);
                    assertThat(r.head().connectionHas("close")).as(r.head().raw()).isTrue();
                    c.awaitClosed(3000);
                }
            }
            assertThat(origin.accepted()).isEqualTo(2);
            assertThat(origin.requests(1).get(0).head().connectionHas("close")).isTrue();
            assertThat(origin.awaitNoOpenConnection(3000)).as("server connections closed").isTrue();
        }
    }

    /**
     * A backend's option closes its server side only: for client connections only the frontend counts
     * (configuration.txt, option httpclose; HAProxy's httpclose.vtc). httpclose also says so to the server.
     */
    @ParameterizedTest
    @ValueSource(strings = {"option httpclose", "option http-server-close"})
    void closingModeInTheBackendOnly(String option) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()).replace("    server s1",
                     "    " + option + "\n    server s1"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 2; i++) {
                Response r = c.exchange(get("/" + i));
                assertThat(r.bodyText()).isEqualTo(i + "#1 /" + i);
                assertThat(r.get("connection")).as(r.head().raw()).isNull();
            }
            assertThat(origin.accepted()).isEqualTo(2);
            if (option.endsWith("httpclose")) {
                assertThat(origin.requests(1).get(0).head().connectionHas("close")).isTrue();
            }
        }
    }

    /** Three requests in one write are all answered, in order, even when the first takes longer. */
    @Test
    void pipelinedRequestsAnsweredInOrder() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/slow")) {
                     Thread.sleep(300);
                 }
                 x.reply(200, x.connection + "#" + x.index + " " + x.target());
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/slow") + "POST /post HTTP/1.1\r\nHost: test\r\nContent-Length: 4\r\n\r\nbody" + get("/third"));
            assertThat(c.read().bodyText()).isEqualTo("1#1 /slow");
            assertThat(c.read().bodyText()).isEqualTo("1#2 /post");
            assertThat(c.read().bodyText()).isEqualTo("1#3 /third");
            assertThat(origin.requests(2).get(1).bodyLength()).isEqualTo(4);
            c.assertSilent(300, "after the three responses");
        }
    }

    /**
     * Pipelined requests followed by the client's half-close are all answered before the close. (HAProxy 2.6
     * does so when the origin is slow, but often closes after the first response when it is fast: a race with
     * its reading of the shutdown. A half-close is no abort: Fulcrum answers them all.)
     */
    @Test
    void pipelinedRequestsThenHalfClose() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 answers only the first one, most of the time");
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/1") + get("/2") + get("/3"));
            c.socket.shutdownOutput();
            assertThat(c.read().bodyText()).isEqualTo("1#1 /1");
            assertThat(c.read().bodyText()).isEqualTo("1#2 /2");
            assertThat(c.read().bodyText()).isEqualTo("1#3 /3");
            c.awaitClosed(3000);
        }
    }

    /** A request, then the half-close: the response still comes back, then the close. */
    @Test
    void requestThenHalfClose() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 Thread.sleep(200);
                 x.reply(200, "late");
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            c.socket.shutdownOutput();
            assertThat(c.read().bodyText()).isEqualTo("late");
            c.awaitClosed(3000);
        }
    }

    /** A server that says connection: close is not reused; the client's connection goes on. */
    @Test
    void serverConnectionCloseIsNotReused() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.reply(200, x.connection + "#" + x.index, "Connection: close");
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 1; i <= 3; i++) {
                Response r = c.exchange(get("/"));
                assertThat(r.bodyText()).isEqualTo(i + "#1");
                assertThat(r.head().connectionHas("close")).isFalse();
            }
            assertThat(origin.accepted()).isEqualTo(3);
        }
    }

    /**
     * A server connection the origin closed while it was idle is not used again: the next request goes
     * on a new connection and succeeds.
     */
    @Test
    void idleServerConnectionClosedByTheOrigin() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.reply(200, x.connection + "#" + x.index);
                 if (x.connection == 1) {
                     Thread.sleep(100);
                     x.close(); // after the response, without saying so
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("1#1");
            Thread.sleep(500);
            Response r = c.exchange(get("/"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.bodyText()).isEqualTo("2#1");
        }
    }

    /** Sends a POST head announcing {@code size} bytes, then the body slowly, from another thread. */
    private static java.util.concurrent.CompletableFuture<Void> slowUpload(HttpClientConn c, int size) throws Exception {
        c.send("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: " + size + "\r\n\r\n");
        return java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                byte[] chunk = new byte[64 * 1024];
                for (int sent = 0; sent < size; sent += chunk.length) {
                    c.out().write(chunk);
                    Thread.sleep(2);
                }
                c.out().flush();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, r -> Thread.ofPlatform().daemon().start(r));
    }

    /**
     * A server that answers before the request body is complete (an upload refused at once) and goes on
     * reading it: the response reaches the client while it is still sending, the rest of the body still goes
     * to the server, and both connections go on, as with HAProxy. (Closing the client connection with the
     * body unread would reset it while it sends, which can destroy the response before it is read.)
     */
    @Test
    void earlyResponseWhileTheServerReadsTheBody() throws Exception {
        int size = 8 << 20;
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.method().equals("POST")) {
                     x.send("HTTP/1.1 401 Unauthorized\r\nContent-Length: 4\r\n\r\nnope");
                     x.readBody();
                 } else {
                     x.reply(200, x.connection + "#" + x.index + " " + x.target());
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            java.util.concurrent.CompletableFuture<Void> writer = slowUpload(c, size);
            Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.bodyText()).isEqualTo("nope");
            writer.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(c.exchange(get("/next")).bodyText()).isEqualTo("1#2 /next");
            assertThat(origin.requests(1).get(0).bodyLength()).isEqualTo(size);
        }
    }

    /** The same, but the server closes after its response: the client gets the response, then the close. */
    @Test
    void earlyResponseThenTheServerCloses() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 4\r\n\r\nnope");
                 x.close();
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            java.util.concurrent.CompletableFuture<Void> writer = slowUpload(c, 8 << 20);
            Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.bodyText()).isEqualTo("nope");
            c.awaitClosed(5000);
            writer.handle((v, e) -> null).get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /**
     * Many clients at once, each with several requests (some with bodies) on its keep-alive connection: every
     * response is the one for its own request, and the server connections are reused.
     */
    @Test
    void concurrentClientsGetTheirOwnResponses() throws Exception {
        int clients = 64;
        int requests = 20;
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.readBody();
                 x.reply(200, x.target() + " " + x.body.count());
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int k = 0; k < clients; k++) {
                    int client = k;
                    done.add(pool.submit(() -> {
                        try (HttpClientConn c = HttpClientConn.open(fe)) {
                            for (int i = 0; i < requests; i++) {
                                String target = "/c" + client + "/r" + i;
                                String body = "x".repeat((client * 31 + i * 7) % 500);
                                if (i % 3 == 0) {
                                    c.send(get(target));
                                    body = "";
                                } else {
                                    c.send("POST " + target + " HTTP/1.1\r\nHost: test\r\nContent-Length: " + body.length()
                                            + "\r\n\r\n" + body);
                                }
                                Response r = c.read();
                                assertThat(r.bodyText()).isEqualTo(target + " " + body.length());
                            }
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) {
                    f.get(60, java.util.concurrent.TimeUnit.SECONDS);
                }
            }
            assertThat(origin.requests(clients * requests)).hasSize(clients * requests);
            // Server connections were reused (HAProxy, whose idle connections are per thread, needs some more
            // than one per client; without reuse it would be one per request).
            assertThat(origin.accepted()).isLessThan(clients * requests / 4);
        }
    }
}
