package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.HttpReuseIT.awaitIdle;
import static io.fulcrum.it.HttpReuseIT.columns;
import static io.fulcrum.it.HttpReuseIT.fdTakeover;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounds of the idle server connections and the takeovers between threads, as the origin sees them (which
 * connection each request came on, "connection#request-on-it"), with {@code show servers conn} and
 * {@code show activity}: {@code pool-max-conn}, the {@code pool-low-conn} gate on takeovers, and where a takeover
 * starts looking. Bind lines pinned to one thread each ({@code thread N}) choose the thread of a request. Runs
 * against haproxy too.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdlePoolIT {

    /**
     * {@code nbthread} threads and a stats socket; frontend fe with one bind per port in {@code ports}, the i-th on
     * thread i + 1 ({@code pinned}) or on all; backend be with {@code backend} lines and server s1 on {@code be}.
     * Responses name their thread (x-thread).
     */
    private static String config(int threads, Path sock, int[] ports, boolean pinned, String backend, int be) {
        StringBuilder binds = new StringBuilder();
        for (int i = 0; i < ports.length; i++) {
            binds.append("    bind 127.0.0.1:").append(ports[i]).append(pinned ? " thread " + (i + 1) : "").append('\n');
        }
        return """
                global
                    nbthread %d
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                %s    http-after-response set-header x-thread %%[thread]
                    default_backend be
                backend be
                %s
                    server s1 127.0.0.1:%d
                """.formatted(threads, sock, binds, backend.indent(4), be);
    }

    /** Starts the proxy on {@code config} and waits until it listens on every port. */
    private static FulcrumProcess start(String config, int[] ports) throws Exception {
        FulcrumProcess p = serve(config, ports[0]);
        for (int i = 1; i < ports.length; i++) {
            TcpProxyKit.awaitListening(p, TcpProxyKit.LOCALHOST, ports[i], Duration.ofSeconds(30));
        }
        return p;
    }

    private static Path socket() throws Exception {
        return Files.createTempDirectory("fulcrum-pool").resolve("stats.sock");
    }

    private static int[] ports(int n) throws Exception {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = freePort();
        }
        return p;
    }

    /**
     * pool-max-conn N keeps at most N idle connections to the server, -1 any number, 0 none: four requests in flight
     * together, then the count of idle connections (show servers conn's idle_cur) and of connections the origin still
     * has open.
     */
    @Test
    void poolMaxConnBoundsTheIdleConnections() throws Exception {
        assertThat(idleAfterFour("2")).containsExactly(2, 2);
        assertThat(idleAfterFour("-1")).containsExactly(4, 4);
        assertThat(idleAfterFour("0")).containsExactly(0, 0);
    }

    private static List<Integer> idleAfterFour(String maxConn) throws Exception {
        int[] fe = ports(1);
        Path sock = socket();
        CountDownLatch all = new CountDownLatch(4);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 all.countDown();
                 all.await(5, TimeUnit.SECONDS); // the 4 requests are in flight together
                 x.reply(200, x.connection + "#" + x.index);
             });
             FulcrumProcess proxy = start(config(1, sock, fe, false,
                     "default-server pool-max-conn " + maxConn + " pool-purge-delay 1m", origin.port()), fe)) {
            List<HttpClientConn> clients = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                HttpClientConn c = HttpClientConn.open(fe[0]);
                clients.add(c);
                c.send(get("/"));
            }
            for (HttpClientConn c : clients) {
                assertThat(c.read().status()).isEqualTo(200);
            }
            awaitIdle(sock);
            int idle = Integer.parseInt(columns(CliClient.send(sock, "show servers conn be"))[12]);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (origin.open() > idle && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(origin.accepted()).isEqualTo(4);
            for (HttpClientConn c : clients) {
                c.close();
            }
            return List.of(idle, origin.open());
        }
    }

    /** One request on a new client connection to {@code port}: its body, after checking the thread that served it. */
    private static String request(int port, int thread, Path sock) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            Response r = c.exchange(get("/"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.head().get("x-thread")).isEqualTo(String.valueOf(thread));
            awaitIdle(sock);
            return r.bodyText();
        }
    }

    /**
     * A thread takes another's idle connection only while the server has at least pool-low-conn idle ones. With 2,
     * the one connection of thread 0 stays there and thread 1 opens its own; thread 0 reuses its own, which makes it
     * safe; with two idle now, thread 1 takes that safe one over rather than reuse its own that carried one request
     * only (under always, a first request looks for a safe connection in every thread before an idle one). With 1,
     * each request takes the one connection from the other thread.
     */
    @Test
    void poolLowConnGatesTakeovers() throws Exception {
        assertThat(twoThreads("pool-low-conn 2")).containsExactly("1#1", "2#1", "1#2", "1#3", "1");
        assertThat(twoThreads("pool-low-conn 1")).containsExactly("1#1", "1#2", "1#3", "1#4", "3");
    }

    /** Requests on threads 0, 1, 0, 1 under http-reuse always: their bodies, then fd_takeover. */
    private static List<String> twoThreads(String serverOptions) throws Exception {
        int[] fe = ports(2);
        Path sock = socket();
        try (HttpOrigin origin = HttpReuseIT.origin();
             FulcrumProcess proxy = start(config(2, sock, fe, true,
                     "http-reuse always\ndefault-server pool-purge-delay 1m " + serverOptions, origin.port()), fe)) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                out.add(request(fe[i % 2], i % 2, sock));
            }
            out.add(String.valueOf(fdTakeover(sock)));
            return out;
        }
    }

    /**
     * 50 requests one after the other, each on a new client connection, on threads 0 and 1 in turn, under always:
     * each finds the server connection the one before left idle on the other thread and takes it over. HAProxy opens
     * a second one at times (a request racing the previous one's connection back to its idle list: the client had
     * the response first), never a third, as with two connections one is always idle. Fulcrum puts the connection
     * back before the end of the response goes to the client: one connection, taken over 49 times.
     */
    @Test
    void requestsAlternatingBetweenThreadsShareOneConnection() throws Exception {
        int[] fe = ports(2);
        Path sock = socket();
        try (HttpOrigin origin = HttpReuseIT.origin();
             FulcrumProcess proxy = start(config(2, sock, fe, true,
                     "http-reuse always\ndefault-server pool-purge-delay 1m", origin.port()), fe)) {
            for (int i = 0; i < 50; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe[i % 2])) {
                    Response r = c.exchange(get("/"));
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.head().get("x-thread")).isEqualTo(String.valueOf(i % 2));
                }
            }
            assertThat(origin.accepted()).isBetween(1, 2);
            if (!haproxy()) {
                assertThat(origin.accepted()).isEqualTo(1);
                assertThat(fdTakeover(sock)).isEqualTo(49);
            }
        }
    }

    /**
     * Three threads, bind line i on thread i, {@code http-reuse reuse}: server connections X and Y, made by first
     * requests on client connections a (thread 0) and b (thread 1) together, are idle in threads 0 and 1 when
     * {@code steps} run; no other connection is opened meanwhile.
     */
    private static void twoConnectionsOnThreeThreads(String reuse, Steps steps) throws Exception {
        int[] fe = ports(3);
        Path sock = socket();
        CountDownLatch both = new CountDownLatch(2);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 both.countDown();
                 both.await(5, TimeUnit.SECONDS); // the first two are in flight together: two connections
                 x.reply(200, x.connection + "#" + x.index);
             });
             FulcrumProcess proxy = start(config(3, sock, fe, true,
                     "http-reuse " + reuse + "\ndefault-server pool-purge-delay 1m", origin.port()), fe);
             HttpClientConn a = HttpClientConn.open(fe[0]);
             HttpClientConn b = HttpClientConn.open(fe[1])) {
            a.send(get("/"));
            b.send(get("/"));
            String x = a.read().bodyText().split("#")[0];
            String y = b.read().bodyText().split("#")[0];
            assertThat(x).isNotEqualTo(y);
            awaitIdle(sock);
            steps.run(new Pair(fe, sock, a, b, x, y));
            assertThat(origin.accepted()).isEqualTo(2);
        }
    }

    /** The ports of the three bind lines, the stats socket, the two client connections and X's and Y's numbers. */
    private record Pair(int[] fe, Path sock, HttpClientConn a, HttpClientConn b, String x, String y) {
    }

    @FunctionalInterface
    private interface Steps {
        void run(Pair p) throws Exception;
    }

    /**
     * A takeover looks at the threads from the one after the thread that last gave a connection, its own included
     * (HAProxy's next_takeover, set whenever a connection is found): connections X on thread 0 and Y on thread 1;
     * thread 0 reuses X, so thread 2 takes Y, not X; then thread 1, which has none left, takes Y back from thread 2
     * (after thread 2 comes thread 0: X would be next).
     */
    @Test
    void takeoversStartAfterTheThreadThatGaveTheLastConnection() throws Exception {
        twoConnectionsOnThreeThreads("always", p -> {
            // Each carries a second request (from its own thread), so both are safe: any request may take either.
            assertThat(p.a().exchange(get("/")).bodyText()).isEqualTo(p.x() + "#2");
            awaitIdle(p.sock());
            assertThat(p.b().exchange(get("/")).bodyText()).isEqualTo(p.y() + "#2");
            awaitIdle(p.sock());
            assertThat(request(p.fe()[0], 0, p.sock())).isEqualTo(p.x() + "#3");
            assertThat(fdTakeover(p.sock())).isZero();
            assertThat(request(p.fe()[2], 2, p.sock())).isEqualTo(p.y() + "#3");
            assertThat(request(p.fe()[1], 1, p.sock())).isEqualTo(p.y() + "#4");
            assertThat(fdTakeover(p.sock())).isEqualTo(2);
        });
    }

    /**
     * aggressive: a first request takes a safe connection only, from another thread too, passing over a thread whose
     * idle connections carried one request each: X on thread 0 (one request), Y on thread 1 (two); a first request on
     * thread 2 looks at thread 0 first (after thread 1, where Y was last found), passes X over and takes Y.
     */
    @Test
    void aggressiveTakesOverSafeConnectionsOnly() throws Exception {
        twoConnectionsOnThreeThreads("aggressive", p -> {
            assertThat(p.b().exchange(get("/")).bodyText()).isEqualTo(p.y() + "#2");
            awaitIdle(p.sock());
            assertThat(request(p.fe()[2], 2, p.sock())).isEqualTo(p.y() + "#3");
            assertThat(fdTakeover(p.sock())).isEqualTo(1);
        });
    }
}
