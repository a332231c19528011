package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code http-reuse} and the idle pools: which server connection each request travels on, told by the origin
 * ("connection#request-on-it"), under each reuse mode; private connections (NTLM); {@code max-reuse},
 * {@code pool-max-conn}; takeover of an idle connection by another thread; the purge of idle connections.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpReuseIT {

    static HttpOrigin origin() throws Exception {
        return HttpOrigin.start(x -> x.reply(200, x.connection + "#" + x.index));
    }

    /** One server, s1 on {@code be}: {@code backend} lines (server options go on default-server); responses name their thread. */
    private static String config(int fe, int be, String global, String backend) {
        return "global\n" + global.indent(4) + HttpKit.config("127.0.0.1:" + fe, "http-after-response set-header x-thread %[thread]", backend, be);
    }

    private static String body(HttpClientConn c) throws Exception {
        Response r = c.exchange(get("/"));
        assertThat(r.status()).isEqualTo(200);
        return r.bodyText();
    }

    /**
     * safe: a client connection's first request goes on a new connection, the next ones on any idle one. Until a
     * purge has estimated the need, a thread keeps one idle connection only: b's is closed after its response.
     */
    @Test
    void safeSharesOnlyLaterRequests() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse safe"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("2#1"); // first request: not on a's idle connection
            assertThat(body(b)).isEqualTo("1#2"); // a later request: on a's
            assertThat(body(a)).isEqualTo("1#3");
            assertThat(origin.accepted()).isEqualTo(2);
        }
    }

    /**
     * A request takes the oldest idle connection, as HAProxy's: a b b a gives b's second request a's connection
     * and a's second b's. pool-low-conn keeps every connection idle.
     */
    @Test
    void oldestIdleConnectionFirst() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse safe\ndefault-server pool-low-conn 10"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("2#1");
            assertThat(body(b)).isEqualTo("1#2");
            assertThat(body(a)).isEqualTo("2#2");
        }
    }

    /**
     * The safe list too gives its oldest first: with a a b b c c each client's second request made its connection
     * safe, in that order; the third requests a b c then go on connections 1, 2, 3 (each goes back last).
     */
    @Test
    void oldestSafeConnectionFirst() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse safe\ndefault-server pool-low-conn 10"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            List<HttpClientConn> clients = List.of(a, b, c);
            for (int i = 0; i < clients.size(); i++) {
                assertThat(body(clients.get(i))).isEqualTo((i + 1) + "#1");
                assertThat(body(clients.get(i))).isEqualTo((i + 1) + "#2");
            }
            for (int i = 0; i < clients.size(); i++) {
                assertThat(body(clients.get(i))).isEqualTo((i + 1) + "#3");
            }
        }
    }

    /** aggressive: a first request takes only a connection that already carried more than one request. */
    @Test
    void aggressiveGivesFirstRequestsSafeConnectionsOnly() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse aggressive"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("2#1"); // connection 1 carried a single request: not safe yet
            assertThat(body(b)).isEqualTo("1#2"); // now connection 1 is safe
            assertThat(body(c)).isEqualTo("1#3");
            assertThat(origin.accepted()).isEqualTo(2);
        }
    }

    /** always: a first request takes any idle connection. */
    @Test
    void alwaysGivesFirstRequestsAnyConnection() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse always"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("1#2");
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }

    /** never: each client connection keeps its own server connection, closed with it. */
    @Test
    void neverKeepsConnectionsPerClient() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse never"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("2#1");
            assertThat(body(a)).isEqualTo("1#2");
            assertThat(body(b)).isEqualTo("2#2");
            a.close();
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(body(c)).isEqualTo("3#1");
            }
        }
    }

    /**
     * A connection of {@code http-reuse never} is private, as HAProxy's conn_set_private() makes it: never one of the
     * server's connections in use (used_conn_cur), and the estimated need (need_conn_est) reaches 1 only, from its
     * creation; a request on the client's own connection counts as a reuse. Under safe, the three connections in
     * flight together are in use. Fields: used_conn_cur and need_conn_est with three requests in flight, then
     * connect and reuse after a second request on the first client connection.
     */
    @Test
    void usedConnectionsAndTheNeedOfPrivateConnections() throws Exception {
        assertThat(countsOfThreeInFlight("http-reuse never")).containsExactly("0", "1", "3", "1");
        assertThat(countsOfThreeInFlight("http-reuse safe")).containsExactly("3", "3", "3", "1");
    }

    private static List<String> countsOfThreeInFlight(String backend) throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-reuse").resolve("stats.sock");
        CountDownLatch go = new CountDownLatch(1);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 go.await(5, TimeUnit.SECONDS);
                 x.reply(200, x.connection + "#" + x.index);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1\nstats socket " + sock + " level admin", backend), fe)) {
            List<HttpClientConn> clients = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                HttpClientConn c = HttpClientConn.open(fe);
                clients.add(c);
                c.send(get("/"));
                origin.nextHead(5000);
            }
            Map<String, String> during = StatsIT.rows(CliClient.send(sock, "show stat")).get("be/s1");
            go.countDown();
            for (HttpClientConn c : clients) {
                assertThat(c.read().status()).isEqualTo(200);
            }
            assertThat(body(clients.get(0))).endsWith("#2"); // (under safe, on any of the idle ones)
            for (HttpClientConn c : clients) {
                c.close();
            }
            Map<String, String> after = StatsIT.rows(CliClient.send(sock, "show stat")).get("be/s1");
            return List.of(during.get("used_conn_cur"), during.get("need_conn_est"), after.get("connect"), after.get("reuse"));
        }
    }

    /** A server asking for NTLM binds the connection to its client: others never get it, even under always. */
    @Test
    void ntlmMakesTheConnectionPrivate() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().equals("/auth")) {
                     x.reply(401, x.connection + "#" + x.index, "WWW-Authenticate: Basic realm=x, NTLM");
                 } else {
                     x.reply(200, x.connection + "#" + x.index);
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1",
                     "http-reuse always"), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            assertThat(a.exchange(get("/auth")).bodyText()).isEqualTo("1#1");
            assertThat(body(b)).isEqualTo("2#1");
            // a's next requests stay on its connection, which b could not take
            assertThat(body(a)).isEqualTo("1#2");
            assertThat(body(a)).isEqualTo("1#3");
        }
    }

    /** max-reuse 1: a connection carries its first request and one more (HAProxy's HTTP/1 ignores it). */
    @Test
    void maxReuseBoundsRequestsPerConnection() throws Exception {
        assumeFalse(haproxy());
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "default-server max-reuse 1"), fe);
             HttpClientConn a = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(a)).isEqualTo("1#2");
            assertThat(body(a)).isEqualTo("2#1");
        }
    }

    /** pool-max-conn 0 keeps no idle connection. */
    @Test
    void poolMaxConnZeroKeepsNone() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 1", "http-reuse always\ndefault-server pool-max-conn 0"), fe);
             HttpClientConn a = HttpClientConn.open(fe)) {
            assertThat(body(a)).isEqualTo("1#1");
            assertThat(body(a)).isEqualTo("2#1");
        }
    }

    /**
     * A thread without an idle connection takes over another thread's: the origin sees one connection only, and
     * {@code show activity} counts a takeover (fd_takeover) each time a request comes on another thread than the
     * one before. Each client connection waits for the server connection to be idle again (another thread could
     * get the request first, find none idle and open one).
     */
    @Test
    void idleConnectionsMoveBetweenThreads() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-reuse").resolve("stats.sock");
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 3\nstats socket " + sock + " level admin",
                     "http-reuse always"), fe)) {
            List<String> threads = sequentialRequests(fe, sock, 12, i -> "1#" + i);
            assertThat(threads).as("client connections spread over the threads").contains("0", "1", "2");
            assertThat(origin.accepted()).isEqualTo(1);
            long moves = IntStream.range(1, threads.size()).filter(i -> !threads.get(i).equals(threads.get(i - 1))).count();
            assertThat(fdTakeover(sock)).as("fd_takeover, threads " + threads).isEqualTo(moves);
        }
    }

    /** tune.idle-pool.shared off: a thread never takes another's connection; each thread opens its own and reuses it. */
    @Test
    void idlePoolSharedOffKeepsConnectionsInTheirThread() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-reuse").resolve("stats.sock");
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config(fe, origin.port(), "nbthread 3\ntune.idle-pool.shared off\nstats socket " + sock
                     + " level admin", "http-reuse always\ndefault-server pool-purge-delay 1m"), fe)) { // (no purge meanwhile)
            List<String> threads = sequentialRequests(fe, sock, 12, i -> null);
            assertThat(threads).contains("0", "1", "2");
            assertThat(origin.accepted()).as("one connection per thread").isEqualTo(3);
            assertThat(fdTakeover(sock)).isZero();
        }
    }

    /**
     * {@code n} client connections one after the other, a request each (its body checked against {@code body} of its
     * number from 1, when not null), each waiting until the server connection is idle again; the thread of each.
     */
    private static List<String> sequentialRequests(int fe, Path sock, int n, IntFunction<String> body)
            throws Exception {
        List<String> threads = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(200);
                if (body.apply(i) != null) {
                    assertThat(r.bodyText()).isEqualTo(body.apply(i));
                }
                threads.add(r.head().get("x-thread"));
            }
            awaitIdle(sock);
        }
        return threads;
    }

    /** Waits until no connection to be/s1 is in use (show servers conn's used_cur): it went back to its pool. */
    static void awaitIdle(Path sock) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String out = CliClient.send(sock, "show servers conn be");
        while (!columns(out)[6].equals("0") && System.nanoTime() < deadline) {
            Thread.sleep(5);
            out = CliClient.send(sock, "show servers conn be");
        }
        assertThat(columns(out)[6]).as(out).isEqualTo("0");
    }

    /** The total of fd_takeover in show activity. */
    static long fdTakeover(Path sock) throws Exception {
        String out = CliClient.send(sock, "show activity");
        return Long.parseLong(out.lines().filter(l -> l.startsWith("fd_takeover: ")).findFirst().orElseThrow().split(" ")[1]);
    }

    /**
     * Idle connections above the need are closed by halves every pool-purge-delay: after a burst of 8 concurrent
     * requests on two threads, the 8 connections kept idle go, and the estimate of the need falls back.
     */
    @Test
    void purgeClosesIdleConnectionsAboveTheNeed() throws Exception {
        List<Integer> seen = idleAfterBurst("nbthread 2");
        assertThat(seen).as("closed by halves, not at once").hasSizeGreaterThan(2).isSortedAccordingTo((x, y) -> y - x);
    }

    /**
     * The exact counts of one thread's purge, as HAProxy's: the need is 8, then 4, 2, 1; each period half the excess
     * plus one goes (none while the need covers them): 8, 8, 5, 2, 0.
     */
    @Test
    void purgeClosesHalfTheExcessPlusOne() throws Exception {
        assertThat(idleAfterBurst("nbthread 1")).containsExactly(8, 5, 2, 0);
    }

    /**
     * Sends 8 requests at once, the origin answering them together, closes the clients, then reads the idle count
     * (show servers conn's idle_cur) until it falls to 0: each count seen, in order; checks that the origin sees
     * every connection closed.
     */
    private static List<Integer> idleAfterBurst(String threads) throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-reuse").resolve("stats.sock");
        CountDownLatch all = new CountDownLatch(8);
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 all.countDown();
                 all.await(5, TimeUnit.SECONDS); // the 8 requests are in flight together
                 x.reply(200, x.connection + "#" + x.index);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), threads + "\nstats socket " + sock + " level admin",
                     "default-server pool-purge-delay 300 pool-low-conn 100"), fe)) {
            List<HttpClientConn> clients = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                HttpClientConn c = HttpClientConn.open(fe);
                clients.add(c);
                c.send(get("/"));
            }
            for (HttpClientConn c : clients) {
                assertThat(c.read().status()).isEqualTo(200);
                c.close();
            }
            String first = CliClient.send(sock, "show servers conn be");
            assertThat(columns(first)[12]).as(first).isEqualTo("8"); // idle_cur
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            List<Integer> seen = new ArrayList<>();
            String out = first;
            int last = -1;
            while (System.nanoTime() < deadline) {
                out = CliClient.send(sock, "show servers conn be");
                int idle = Integer.parseInt(columns(out)[12]);
                // A count is taken once two reads 20 ms apart agree (a purge's closes complete one by one, and a read in
                // their midst sees a count between two steps; a step lasts pool-purge-delay), 0 at once: it is the end.
                if ((idle == last || idle == 0) && (seen.isEmpty() || seen.get(seen.size() - 1) != idle)) {
                    seen.add(idle);
                }
                if (idle == 0) {
                    break;
                }
                last = idle;
                Thread.sleep(20);
            }
            assertThat(seen).as(out).endsWith(0);
            while (origin.open() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(origin.open()).isZero();
            return seen;
        }
    }

    /** The fields of the server line of {@code show servers conn}. */
    static String[] columns(String out) {
        return out.lines().filter(l -> l.startsWith("be/s1 ")).findFirst().orElseThrow().split(" ");
    }
}
