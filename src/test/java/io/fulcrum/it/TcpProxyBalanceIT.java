package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.BindException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static io.fulcrum.it.TcpProxyKit.readExactly;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which server a connection goes to ({@code balance roundrobin|static-rr|leastconn|source}, weights, {@code disabled},
 * backups with and without {@code option allbackups},
 * ports taken from the client's destination) and what happens when connecting fails ({@code retries}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpProxyBalanceIT {

    /** The defaults section of the tests that build their listen section. */
    private static final String DEFAULTS = """
            defaults
                mode tcp
                timeout connect 5s
                timeout client 30s
                timeout server 30s

            """;

    /** An origin that answers each connection with its name, then closes. */
    private static Origin named(String name) throws IOException {
        return Origin.start(s -> send(s, name));
    }

    /** Makes {@code n} connections one after the other and counts which server answered each. */
    private static Map<String, Integer> spread(int fe, int n) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            try (Socket s = connect(fe)) {
                counts.merge(readToEof(s, 100), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** Makes {@code n} connections one after the other: which server answered each, in order. */
    private static List<String> order(int fe, int n) throws IOException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            try (Socket s = connect(fe)) {
                order.add(readToEof(s, 100));
            }
        }
        return order;
    }

    private static String twoServers(int fe, String balance, int a, String aOpts, int b, String bOpts) {
        return DEFAULTS + """
                listen test
                    bind 127.0.0.1:%d
                    balance %s
                    server a 127.0.0.1:%d %s
                    server b 127.0.0.1:%d %s
                """.formatted(fe, balance, a, aOpts, b, bOpts);
    }

    @Test
    void roundRobinFollowsTheWeights() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b");
             FulcrumProcess proxy = serve(twoServers(fe, "roundrobin", a.port(), "weight 3", b.port(), "weight 1"), fe)) {
            // Any 8 consecutive picks of a 3:1 schedule are 6:2, wherever the readiness probe left it.
            assertThat(spread(fe, 8)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 6, "b", 2)));
        }
    }

    @Test
    void roundRobinWithEqualWeightsAlternates() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b");
             FulcrumProcess proxy = serve(twoServers(fe, "roundrobin", a.port(), "", b.port(), ""), fe)) {
            List<String> order = order(fe, 6);
            for (int i = 1; i < order.size(); i++) {
                assertThat(order.get(i)).as("pick %d of %s", i, order).isNotEqualTo(order.get(i - 1));
            }
        }
    }

    /** Weighted turns in HAProxy's order (lb_fwrr from a fresh start), checked against haproxy 2.6. */
    @Test
    void weightedRoundRobinTakesHaproxysTurns() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b");
             FulcrumProcess proxy = serve(twoServers(fe, "roundrobin", a.port(), "weight 1", b.port(), "weight 2"), fe)) {
            List<String> order = order(fe, 9);
            assertThat(order).containsExactly("b", "b", "a", "b", "b", "a", "b", "b", "a");
        }
    }

    /**
     * An algorithm hashing a part of the HTTP request in a TCP backend falls back to roundrobin with HAProxy's warning:
     * the weighted turns of roundrobin, even under hash-type consistent (checked against haproxy 2.6).
     */
    @Test
    void layer7HashInTcpTakesRoundRobinTurns() throws Exception {
        for (String balance : new String[] {"uri whole\n    hash-type consistent", "hdr(host)", "url_param x check_post"}) {
            int fe = freePort();
            try (Origin a = named("a"); Origin b = named("b");
                 FulcrumProcess proxy = serve(twoServers(fe, balance, a.port(), "weight 1", b.port(), "weight 2"), fe)) {
                assertThat(order(fe, 9)).as(balance).containsExactly("b", "b", "a", "b", "b", "a", "b", "b", "a");
                assertThat(proxy.stderr()).as(balance).contains("Layer 7 hash not possible for proxy 'test' (needs 'mode http')."
                        + " Falling back to round robin.");
            }
        }
    }

    /**
     * A weight changed on the CLI moves the server within HAProxy's running windows, the others keep their places:
     * the turns before and over three windows after the changes, as haproxy 2.6 takes them.
     */
    @Test
    void roundRobinCarriesTheTurnsOverAWeightChange() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b"); Origin c = named("c");
             FulcrumProcess proxy = serve("""
                     global
                         stats socket %s level admin
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s

                     listen test
                         bind 127.0.0.1:%d
                         balance roundrobin
                         server a 127.0.0.1:%d weight 5
                         server b 127.0.0.1:%d weight 1
                         server c 127.0.0.1:%d weight 2
                     """.formatted(cli, fe, a.port(), b.port(), c.port()), fe)) {
            assertThat(String.join("", order(fe, 3))).isEqualTo("aac");
            assertThat(CliClient.send(cli, "set weight test/a 1")).isEqualTo("\n");
            assertThat(String.join("", order(fe, 20))).isEqualTo("bcabccabccabccabccab");
            assertThat(CliClient.send(cli, "set weight test/c 4; disable server test/b")).isEqualTo("\n\n");
            assertThat(String.join("", order(fe, 15))).isEqualTo("cccaccccaccccac");
        }
    }

    @Test
    void staticRoundRobinFollowsTheWeights() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b");
             FulcrumProcess proxy = serve(twoServers(fe, "static-rr", a.port(), "weight 1", b.port(), "weight 2"), fe)) {
            assertThat(spread(fe, 9)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 3, "b", 6)));
        }
    }

    @Test
    void disabledServerGetsNoConnection() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b"); Origin c = named("c");
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s

                     listen test
                         bind 127.0.0.1:%d
                         balance roundrobin
                         server a 127.0.0.1:%d
                         server b 127.0.0.1:%d disabled
                         server c 127.0.0.1:%d
                     """.formatted(fe, a.port(), b.port(), c.port()), fe)) {
            assertThat(spread(fe, 8)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 4, "c", 4)));
            assertThat(b.accepted()).isZero();
        }
    }

    /** Four servers a to d behind {@code balance}, with {@code more} lines in the proxy. */
    private static String fourServers(int fe, String balance, String more, Origin... o) {
        return DEFAULTS + """
                listen test
                    bind 127.0.0.1:%d
                    balance %s
                %s
                    server a 127.0.0.1:%d
                    server b 127.0.0.1:%d
                    server c 127.0.0.1:%d backup
                    server d 127.0.0.1:%d backup
                """.formatted(fe, balance, more, o[0].port(), o[1].port(), o[2].port(), o[3].port());
    }

    /** Which server answers a connection from {@code source} (a loopback address). */
    private static String from(String source, int fe) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new java.net.InetSocketAddress(source, 0));
            s.connect(new java.net.InetSocketAddress("127.0.0.1", fe), 5000);
            s.setSoTimeout(10_000);
            return readToEof(s, 100);
        }
    }

    /**
     * {@code balance source}: each client address keeps its server, and which one is HAProxy's map-based hash of the
     * address (the expected servers were recorded from haproxy 2.6; the test passes against it).
     */
    @Test
    void sourceHashKeepsEachClientOnHaproxysServer() throws Exception {
        int fe = freePort();
        try (Origin a = named("a"); Origin b = named("b"); Origin c = named("c"); Origin d = named("d");
             FulcrumProcess proxy = serve(fourServers(fe, "source", "", a, b, c, d).replace(" backup", ""), fe)) {
            StringBuilder got = new StringBuilder();
            for (String source : SOURCES) {
                String server = from(source, fe);
                assertThat(from(source, fe)).as("%s again", source).isEqualTo(server);
                got.append(server);
            }
            assertThat(got).hasToString(SOURCE_SERVERS);
        }
    }

    private static final String[] SOURCES = {"127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7",
        "127.0.0.8", "127.1.2.3", "127.9.8.7", "127.200.1.33", "127.45.67.89", "127.255.0.254", "127.3.0.0", "127.17.42.5", "127.128.64.32"};
    /** The servers of {@link #SOURCES} under {@code balance source} over a, b, c and d, as haproxy 2.6 chose them. */
    private static final String SOURCE_SERVERS = "bcdabcdaddbbcaba";

    /** An origin that answers each connection with its name, keeps it until the proxy closes it, then counts it in {@code closed}. */
    private static Origin holding(String name, java.util.concurrent.atomic.AtomicInteger closed) throws IOException {
        return Origin.start(s -> {
            send(s, name);
            s.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            closed.incrementAndGet();
        });
    }

    /** Opens a connection that stays open: the name of the server that answered it. */
    private static String open(int fe, List<Socket> kept) throws IOException {
        Socket s = connect(fe);
        kept.add(s);
        return new String(s.getInputStream().readNBytes(1), java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * {@code balance leastconn}: once the second server's connection is closed, the next connection goes back to it
     * (round robin would give the first server its turn).
     */
    @Test
    void leastConnGoesWhereTheFewestConnectionsAre() throws Exception {
        int fe = freePort();
        List<Socket> kept = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger closed = new java.util.concurrent.atomic.AtomicInteger();
        try (Origin a = holding("a", closed); Origin b = holding("b", closed);
             FulcrumProcess proxy = serve(twoServers(fe, "leastconn", a.port(), "", b.port(), ""), fe)) {
            String first = open(fe, kept);
            String second = open(fe, kept);
            assertThat(second).isNotEqualTo(first);
            kept.remove(1).close();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (closed.get() == 0) { // the proxy closed the server side: the session is over
                assertThat(System.nanoTime()).as("the proxy closes the second server's connection").isLessThan(deadline);
                Thread.sleep(10);
            }
            Thread.sleep(100);
            assertThat(open(fe, kept)).isEqualTo(second);
        } finally {
            for (Socket s : kept) {
                s.close();
            }
        }
    }

    /**
     * With every active server gone, the first backup takes all the traffic; with {@code option allbackups}, every
     * backup shares it.
     */
    @Test
    void backupsTakeOverOneOrAll() throws Exception {
        int fe = freePort();
        int dead = freePort();
        try (Origin c = named("c"); Origin d = named("d")) {
            Origin a = Origin.start(dead, s -> send(s, "a"));
            Origin b = named("b");
            a.close();
            b.close();
            for (String more : new String[] {"", "    option allbackups"}) {
                try (FulcrumProcess proxy = serve(fourServers(fe, "roundrobin", more, a, b, c, d)
                        .replace("server a 127.0.0.1:" + a.port(), "server a 127.0.0.1:" + a.port() + " check inter 200 fall 1")
                        .replace("server b 127.0.0.1:" + b.port(), "server b 127.0.0.1:" + b.port() + " check inter 200 fall 1"), fe)) {
                    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
                    while (!(proxy.stderr().contains("Server test/a is DOWN") && proxy.stderr().contains("Server test/b is DOWN"))) {
                        assertThat(System.nanoTime()).as("a and b taken down by their checks").isLessThan(deadline);
                        Thread.sleep(50);
                    }
                    Map<String, Integer> seen = spread(fe, 4);
                    assertThat(seen).as(more).containsExactlyEntriesOf(new TreeMap<>(more.isEmpty() ? Map.of("c", 4) : Map.of("c", 2, "d", 2)));
                }
            }
        }
    }

    /** {@code server s1 127.0.0.1} without a port: the port the client connected to (on another address). */
    @Test
    void serverWithoutPortUsesTheClientsDestinationPort() throws Exception {
        int port = freePort();
        try (Origin origin = Origin.start("127.0.0.1", port, Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s

                     listen test
                         bind 127.0.0.2:%d
                         server s1 127.0.0.1
                     """.formatted(port), "127.0.0.2", port);
             Socket s = connect("127.0.0.2", port)) {
            assertThat(echo(s, "through the same port")).isEqualTo("through the same port");
        }
    }

    /** {@code server s1 127.0.0.1:+1}: the client's destination port plus one. */
    @Test
    void serverPortOffsetAddsToTheClientsDestinationPort() throws Exception {
        Origin origin = null;
        int fe = 0;
        for (int attempt = 0; origin == null && attempt < 20; attempt++) {
            fe = freePort();
            try {
                origin = Origin.start(fe + 1, Origin.ECHO);
            } catch (BindException taken) {
                // fe + 1 is in use: another pair
            }
        }
        assertThat(origin).as("a free pair of ports").isNotNull();
        try (Origin o = origin;
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s

                     listen test
                         bind 127.0.0.1:%d
                         server s1 127.0.0.1:+1
                     """.formatted(fe), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "one port up")).isEqualTo("one port up");
        }
    }

    @Test
    void backendWithNoUsableServerClosesTheClient() throws Exception {
        int fe = freePort();
        try (Origin a = named("a");
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s

                     listen test
                         bind 127.0.0.1:%d
                         server a 127.0.0.1:%d disabled
                     """.formatted(fe, a.port()), fe);
             Socket s = connect(fe)) {
            send(s, "anyone?");
            awaitClosed(s, 5000);
            assertThat(a.accepted()).isZero();
        }
    }

    private static String retries(int fe, int be, int retries, String connectTimeout) {
        return """
                defaults
                    mode tcp
                    timeout connect %s
                    timeout client 30s
                    timeout server 30s

                listen test
                    bind 127.0.0.1:%d
                    retries %d
                    server s1 127.0.0.1:%d
                """.formatted(connectTimeout, fe, retries, be);
    }

    /**
     * The server's port is closed (connections refused) and opens 450 ms after the client came: with
     * {@code retries 3} and {@code timeout connect 300ms} (HAProxy waits min(timeout connect, 1s) between
     * attempts after a refusal), a later attempt gets through and the client is served.
     */
    @Test
    void retriesUntilTheServerAccepts() throws Exception {
        int fe = freePort();
        int be = freePort();
        try (FulcrumProcess proxy = serve(retries(fe, be, 3, "300ms"), fe)) {
            Thread.sleep(1500); // the readiness probe's own attempts are over
            try (Socket s = connect(fe)) {
                send(s, "hello");
                long start = System.nanoTime();
                CompletableFuture<Origin> late = CompletableFuture.supplyAsync(() -> {
                    try {
                        Thread.sleep(450);
                        return Origin.start(be, Origin.ECHO);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                try (Origin origin = late.get(10, TimeUnit.SECONDS)) {
                    assertThat(text(readExactly(s, 5))).isEqualTo("hello");
                    assertThat(millisSince(start, System.nanoTime())).isGreaterThanOrEqualTo(450L);
                    assertThat(origin.accepted()).as("connections that reached the server").isEqualTo(1);
                }
            }
        }
    }

    /**
     * {@code retries 0}: the refused first attempt is the last; the client is closed without a retry (the log's
     * retries count is 0, termination state SC), not after the 1 s pause a retry would take.
     */
    @Test
    void retriesZeroGivesUpAtOnce() throws Exception {
        int fe = freePort();
        int be = freePort();
        String logged = retries(fe, be, 0, "2s").replace("listen test\n", """
                listen test
                    log stderr format raw local0
                    log-format "%ts retries=%rc"
                """);
        try (FulcrumProcess proxy = serve(logged, fe);
             Socket s = connect(fe)) {
            send(s, "hello");
            awaitClosed(s, 5000);
            proxy.awaitStderr("SC retries=0");
        }
    }

    /** {@code retries 2} against a closed port: two pauses of min(timeout connect, 1s) before giving up. */
    @Test
    void retriesAreSpacedAfterRefusals() throws Exception {
        int fe = freePort();
        int be = freePort();
        try (FulcrumProcess proxy = serve(retries(fe, be, 2, "2s"), fe);
             Socket s = connect(fe)) {
            long start = System.nanoTime();
            send(s, "hello");
            assertThat(millisSince(start, awaitClosed(s, 10_000))).isBetween(1800L, 8000L);
        }
    }
}
