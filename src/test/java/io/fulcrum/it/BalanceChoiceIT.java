package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which server a request goes to, over real sockets and servers that answer with their names: {@code balance uri}
 * with {@code path-only}, {@code len}, {@code depth} and {@code whole}, {@code hdr(Host) use_domain_only} (both with
 * {@code hash-type map-based} and {@code consistent}), {@code random(draws)}, {@code hash-balance-factor},
 * {@code minconn} with {@code fullconn}, weighted {@code roundrobin} over 10,000 requests, and the connection
 * counters of {@code show stat}. Every expected server and figure is haproxy 2.6's: run with -Dit.proxy=haproxy.
 */
// Generous: a test starts up to five proxies, each taking seconds on a loaded CI box.
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BalanceChoiceIT {

    /** A listen section on {@code fe} with {@code lines} (indented) and the servers s1, s2... of {@code ports}. */
    private static String listen(int fe, String lines, int... ports) {
        StringBuilder cfg = new StringBuilder("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 30s
                    timeout server 30s
                    timeout queue 30s
                listen l
                """).append("    bind 127.0.0.1:").append(fe).append('\n').append(lines.indent(4));
        for (int i = 0; i < ports.length; i++) {
            cfg.append("    server s").append(i + 1).append(" 127.0.0.1:").append(ports[i]).append('\n');
        }
        return cfg.toString();
    }

    private static int[] ports(HttpOrigin... origins) {
        int[] p = new int[origins.length];
        for (int i = 0; i < origins.length; i++) {
            p[i] = origins[i].port();
        }
        return p;
    }

    /** Four servers s1..s4 that answer with their names. */
    private static HttpOrigin[] four() throws Exception {
        return new HttpOrigin[] {HttpOrigin.ok("s1"), HttpOrigin.ok("s2"), HttpOrigin.ok("s3"), HttpOrigin.ok("s4")};
    }

    private static void closeAll(HttpOrigin... origins) throws Exception {
        for (HttpOrigin o : origins) {
            o.close();
        }
    }

    /** The server (its digit) that answers {@code request} on a connection of its own. */
    private static String server(int fe, String request) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            return server(c, request);
        }
    }

    private static String server(HttpClientConn c, String request) throws Exception {
        return c.exchange(request).bodyText().substring(1);
    }

    private static final List<String> URIS = List.of("/", "/a", "/a/b", "/a/b/c", "/img/logo.png", "/index.html",
            "/api/v1/users", "/api/v1/users/42", "/api/v2/items", "/static/css/site.css", "/x?y=1", "/search?q=fulcrum",
            "/a/b?c=d", "/deep/er/and/deeper/path", "/UPPER/case", "/dots.../x", "/%41%42", "/long/" + "z".repeat(40),
            "/q?", "/api/v1/users?id=7&x=y");

    /**
     * Under each {@code balance uri ...} of {@code expected} with {@code hashType}, for each of the 20 URIs: the server
     * of the URI, of the URI with one more query parameter, and of its absolute form (http://www.example.com...), as
     * three digits. Without {@code whole} another query string keeps the server; {@code path-only} gives an absolute
     * URI the server of its path.
     */
    private static void assertUriServers(String hashType, Map<String, String> expected) throws Exception {
        HttpOrigin[] s = four();
        try {
            Map<String, String> got = new TreeMap<>();
            for (String balance : expected.keySet()) {
                int fe = freePort();
                try (FulcrumProcess proxy = HttpKit.serve(listen(fe, "balance " + balance + "\nhash-type " + hashType, ports(s)), fe);
                     HttpClientConn c = HttpClientConn.open(fe)) {
                    List<String> servers = new ArrayList<>();
                    for (String u : URIS) {
                        String more = u + (u.contains("?") ? "&" : "?") + "zz=1";
                        servers.add(server(c, HttpKit.get(u)) + server(c, HttpKit.get(more))
                                + server(c, "GET http://www.example.com" + u + " HTTP/1.1\r\nHost: www.example.com\r\n\r\n"));
                    }
                    got.put(balance, String.join(" ", servers));
                    if (!balance.contains("whole")) {
                        assertThat(servers).as(balance + ": another query string, the same server").allMatch(x -> x.charAt(0) == x.charAt(1));
                    }
                    if (balance.contains("path-only")) {
                        assertThat(servers).as(balance + ": the absolute form, its path's server").allMatch(x -> x.charAt(0) == x.charAt(2));
                    }
                }
            }
            assertThat(got).isEqualTo(new TreeMap<>(expected));
        } finally {
            closeAll(s);
        }
    }

    /** {@code balance uri} with its options, map-based: each URI goes to haproxy's server. */
    @Test
    void mapBasedUriHashesPickHaproxysServers() throws Exception {
        assertUriServers("map-based", Map.of(
                "uri path-only", "444 333 222 222 222 333 111 222 222 333 222 444 222 222 111 333 111 111 333 111",
                "uri len 6", "442 332 222 222 222 442 332 332 332 332 222 222 222 112 442 222 332 112 332 332",
                "uri depth 2", "441 331 221 221 221 331 441 441 111 221 221 441 221 221 111 331 111 111 331 441",
                "uri path-only whole", "414 323 232 232 232 323 141 232 232 323 444 131 131 232 141 323 141 141 222 313",
                "uri path-only len 8 depth 1", "444 333 333 333 111 222 444 444 444 222 222 444 333 444 444 222 111 444 333 444"));
    }

    /** {@code balance uri} with its options on the consistent-hash ring: each URI goes to haproxy's server. */
    @Test
    void consistentUriHashesPickHaproxysServers() throws Exception {
        assertUriServers("consistent", Map.of(
                "uri", "222 444 222 111 223 441 333 114 221 112 444 113 222 113 443 334 331 333 331 333",
                "uri path-only", "222 444 222 111 222 444 333 111 222 111 444 111 222 111 444 333 333 333 333 333",
                "uri path-only whole", "212 434 212 111 222 444 313 141 232 141 424 313 424 141 414 343 313 333 111 323",
                "uri path-only len 8 depth 1", "222 444 444 444 333 111 111 111 111 111 444 111 444 444 111 222 333 111 333 111"));
    }

    /**
     * {@code balance hdr(Host) use_domain_only} hashes the name before the last dot: www.example.com, example.com,
     * a.b.example.com and www.example.com:8080 share a server; a name without a dot is hashed whole. The servers
     * are haproxy's, map-based and consistent (and without the option, for comparison). Another field follows Host:
     * haproxy's get_server_hh() looks at the byte after the value first (a dot there would end the domain), which
     * without one is whatever its buffer held.
     */
    @Test
    void hostDomainsShareTheirServer() throws Exception {
        List<String> hosts = List.of("www.example.com", "example.com", "a.b.example.com", "EXAMPLE.com", "www.example.com:8080",
                "example.org", "www.example.org", "localhost", "host", "a.b.c.d.e", "example.com.", "x.example.net", "1wt.eu",
                "haproxy.1wt.eu", "127.0.0.1", "www.test.co.uk", " spaced.example.com ");
        Map<String, String> expected = Map.of(
                "map-based/hdr(Host) use_domain_only", "3 3 3 3 3 3 3 4 1 1 2 3 3 3 1 1 3",
                "map-based/hdr(host)", "3 2 1 2 1 1 2 4 1 4 2 4 1 2 2 4 2",
                "consistent/hdr(Host) use_domain_only", "1 1 1 2 1 1 1 2 1 1 1 1 3 3 3 1 1",
                "consistent/hdr(host)", "1 3 1 3 1 2 3 2 1 1 1 4 4 2 3 3 1");
        HttpOrigin[] s = four();
        try {
            Map<String, String> got = new TreeMap<>();
            for (String key : expected.keySet()) {
                String[] parts = key.split("/");
                int fe = freePort();
                try (FulcrumProcess proxy = HttpKit.serve(listen(fe, "balance " + parts[1] + "\nhash-type " + parts[0], ports(s)), fe)) {
                    List<String> servers = new ArrayList<>();
                    for (String h : hosts) {
                        servers.add(server(fe, "GET / HTTP/1.1\r\nHost: " + h + "\r\nX-After: 1\r\n\r\n"));
                    }
                    got.put(key, String.join(" ", servers));
                }
            }
            assertThat(got).isEqualTo(new TreeMap<>(expected));
        } finally {
            closeAll(s);
        }
    }

    /** Four servers a..d with weights 1, 2, 3 and 10 behind {@code balance}. */
    private static String weighted(int fe, String balance, HttpOrigin[] s) {
        return """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 30s
                    timeout server 30s
                listen l
                    bind 127.0.0.1:%d
                    balance %s
                    server a 127.0.0.1:%d weight 1
                    server b 127.0.0.1:%d weight 2
                    server c 127.0.0.1:%d weight 3
                    server d 127.0.0.1:%d weight 10
                """.formatted(fe, balance, s[0].port(), s[1].port(), s[2].port(), s[3].port());
    }

    private static HttpOrigin[] abcd() throws Exception {
        return new HttpOrigin[] {HttpOrigin.ok("a"), HttpOrigin.ok("b"), HttpOrigin.ok("c"), HttpOrigin.ok("d")};
    }

    /** {@code n} requests one after the other on one connection: the server of each, in order. */
    private static List<String> picks(int fe, int n) throws Exception {
        List<String> out = new ArrayList<>(n);
        try (HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < n; i++) {
                out.add(c.exchange(HttpKit.get("/")).bodyText());
            }
        }
        return out;
    }

    private static Map<String, Integer> count(List<String> picks) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String p : picks) {
            counts.merge(p, 1, Integer::sum);
        }
        return counts;
    }

    /**
     * Weighted roundrobin (weights 1, 2, 3, 10): haproxy's first 48 turns from a fresh start, and over 10,000 requests
     * exactly 625 windows of 16.
     */
    @Test
    void weightedRoundRobinOverTenThousandRequests() throws Exception {
        HttpOrigin[] s = abcd();
        int fe = freePort();
        try (FulcrumProcess proxy = HttpKit.serve(weighted(fe, "roundrobin", s), fe)) {
            List<String> picks = picks(fe, 10_000);
            assertThat(String.join("", picks.subList(0, 48))).isEqualTo("ddcddbdcddaddcbdddcddbdcddaddcbdddcddbdcddaddcbd");
            assertThat(count(picks)).isEqualTo(Map.of("a", 625, "b", 1250, "c", 1875, "d", 6250));
        } finally {
            closeAll(s);
        }
    }

    /** static-rr takes its own turns (haproxy's), in the same proportions. */
    @Test
    void staticRoundRobinTakesHaproxysTurns() throws Exception {
        HttpOrigin[] s = abcd();
        int fe = freePort();
        try (FulcrumProcess proxy = HttpKit.serve(weighted(fe, "static-rr", s), fe)) {
            assertThat(String.join("", picks(fe, 48))).isEqualTo("adbddcddbdcddcddadbddcddbdcddcddadbddcddbdcddcdd");
        } finally {
            closeAll(s);
        }
    }

    /**
     * {@code random} and {@code random(2)}, {@code random(3)}: over 2,000 requests each server gets between half and
     * twice its weight's share. (The draws land on the consistent-hash ring, whose arcs are not exactly in
     * proportion to the weights: haproxy gave the server of weight 1 181 requests of 2,000, not 125.)
     */
    @Test
    void randomDrawsFollowTheWeights() throws Exception {
        HttpOrigin[] s = abcd();
        Map<String, Integer> weights = Map.of("a", 1, "b", 2, "c", 3, "d", 10);
        try {
            for (String balance : List.of("random", "random(2)", "random(3)")) {
                int fe = freePort();
                try (FulcrumProcess proxy = HttpKit.serve(weighted(fe, balance, s), fe)) {
                    Map<String, Integer> counts = count(picks(fe, 2000));
                    for (Map.Entry<String, Integer> w : weights.entrySet()) {
                        double share = 2000.0 * w.getValue() / 16;
                        assertThat(counts.getOrDefault(w.getKey(), 0)).as(balance + ": " + w.getKey() + " of " + counts)
                                .isBetween((int) (share / 2), (int) (share * 2));
                    }
                }
            }
        } finally {
            closeAll(s);
        }
    }

    /** A server that holds each request until its gate lets it go, counting the requests it received. */
    private record Held(HttpOrigin origin, Semaphore gate, AtomicInteger got) implements AutoCloseable {
        static Held start(String name) throws Exception {
            Semaphore gate = new Semaphore(0);
            AtomicInteger got = new AtomicInteger();
            HttpOrigin o = HttpOrigin.start(x -> {
                got.incrementAndGet();
                gate.acquire();
                x.reply(200, name);
            });
            return new Held(o, gate, got);
        }

        @Override
        public void close() throws Exception {
            gate.release(1000);
            origin.close();
        }
    }

    /** Waits until the servers together received {@code n} requests (bounded). */
    private static int[] awaitReceived(int n, Held... servers) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (true) {
            int[] got = new int[servers.length];
            int sum = 0;
            for (int i = 0; i < servers.length; i++) {
                got[i] = servers[i].got.get();
                sum += got[i];
            }
            if (sum >= n || System.nanoTime() > end) {
                assertThat(sum).as("requests received").isEqualTo(n);
                return got;
            }
            Thread.sleep(5);
        }
    }

    /**
     * {@code hash-balance-factor} with {@code hash-type consistent}: 15 long requests for one URI, sent one after
     * the other. Without it they all go to the URI's server; with 150 (125), a server takes a request only while it
     * serves fewer than its share of 150% (125%) of the backend's requests, the others go round the ring: the
     * servers, in order, are haproxy's.
     */
    @Test
    void hashBalanceFactorBoundsAServersLoad() throws Exception {
        Map<String, String> expected = new TreeMap<>(Map.of("", "111111111111111", "hash-balance-factor 150",
                "133131313131313", "hash-balance-factor 125", "133213131321313"));
        Map<String, String> got = new TreeMap<>();
        for (String factor : expected.keySet()) {
            int fe = freePort();
            List<HttpClientConn> clients = new ArrayList<>();
            try (Held s1 = Held.start("s1"); Held s2 = Held.start("s2"); Held s3 = Held.start("s3");
                 FulcrumProcess proxy = HttpKit.serve(listen(fe, "balance uri\nhash-type consistent\n" + factor,
                         s1.origin.port(), s2.origin.port(), s3.origin.port()), fe)) {
                StringBuilder order = new StringBuilder();
                int[] before = new int[3];
                for (int i = 0; i < 15; i++) {
                    HttpClientConn c = HttpClientConn.open(fe);
                    clients.add(c);
                    c.send(HttpKit.get("/same"));
                    int[] now = awaitReceived(i + 1, s1, s2, s3);
                    for (int k = 0; k < 3; k++) {
                        if (now[k] != before[k]) {
                            order.append(k + 1);
                        }
                    }
                    before = now;
                }
                got.put(factor, order.toString());
            } finally {
                for (HttpClientConn c : clients) {
                    c.close();
                }
            }
        }
        assertThat(got).isEqualTo(expected);
    }

    /** The fields of {@code show stat} for proxy/server {@code row}. */
    private static Map<String, String> stat(Path cli, String row) throws Exception {
        return StatsIT.rows(CliClient.send(cli, "show stat")).get(row);
    }

    private static String fields(Map<String, String> row, String... names) {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            b.append(b.isEmpty() ? "" : " ").append(n).append('=').append(row.get(n));
        }
        return b.toString();
    }

    /** Waits until {@code show stat}'s row shows {@code expected} for those fields (bounded), and returns what it shows. */
    private static String awaitStat(Path cli, String row, String expected, String... names) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        String now;
        while (!(now = fields(stat(cli, row), names)).equals(expected) && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return now;
    }

    /** A stats socket at {@code cli}, and a listen section on {@code fe} with fullconn 20 and the server s1 with {@code options}. */
    /** What a test does with the stats socket {@code cli} of a proxy on {@code fe} whose server s1 holds its requests. */
    private interface HeldScenario {
        void run(Path cli, int fe, Held s1, List<HttpClientConn> clients) throws Exception;
    }

    /**
     * Runs {@code scenario} on a proxy with a stats socket and a listen section with fullconn 20 and the server s1 with
     * {@code options}; the client connections it adds to the list are closed at the end.
     */
    private static void withFullconn20(String options, HeldScenario scenario) throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        List<HttpClientConn> clients = new ArrayList<>();
        try (Held s1 = Held.start("s1");
             FulcrumProcess proxy = HttpKit.serve("global\n    stats socket " + cli + " level admin\n"
                     + listen(fe, "fullconn 20\nserver s1 127.0.0.1:" + s1.origin.port() + " " + options), fe)) {
            scenario.run(cli, fe, s1, clients);
        } finally {
            for (HttpClientConn c : clients) {
                c.close();
            }
        }
    }

    /**
     * {@code minconn 2 maxconn 10} with {@code fullconn 20}: the server's limit is max(minconn, maxconn * backend
     * streams / fullconn), the backend's streams counting the queued ones and, when a slot is freed, the stream that
     * frees it. 20 requests: the first two are served, the others queue in the backend, behind each other although
     * the limit grows with them (roundrobin queues a request behind the backend's queue). When one ends, the limit
     * is 10 and eight more go; then one ends and none (limit 9), then one ends and one goes... slim shows maxconn
     * and fullconn. As haproxy.
     */
    @Test
    void minconnFollowsTheBackendsLoad() throws Exception {
        withFullconn20("minconn 2 maxconn 10", (cli, fe, s1, clients) -> {
            String[] f = {"scur", "qcur", "slim"};
            List<String> seen = new ArrayList<>();
            for (int i = 1; i <= 20; i++) {
                clients.add(HttpClientConn.open(fe).send(HttpKit.get("/" + i)));
                String be = "scur=" + i + " qcur=" + Math.max(0, i - 2) + " slim=20";
                assertThat(awaitStat(cli, "l/BACKEND", be, f)).as("request " + i).isEqualTo(be);
                if (i == 3 || i == 10 || i == 20) {
                    seen.add(i + ": " + fields(stat(cli, "l/s1"), f) + " / " + fields(stat(cli, "l/BACKEND"), f));
                }
            }
            int[] served = {10, 9, 9, 8, 8, 7};
            int[] queued = {9, 9, 8, 8, 7, 7};
            for (int r = 0; r < served.length; r++) {
                s1.gate.release();
                String be = "scur=" + (19 - r) + " qcur=" + queued[r] + " slim=20";
                assertThat(awaitStat(cli, "l/BACKEND", be, f)).as("after %d ended", r + 1).isEqualTo(be);
                seen.add("-" + (r + 1) + ": " + awaitStat(cli, "l/s1", "scur=" + served[r] + " qcur=0 slim=10", f));
            }
            assertThat(seen).containsExactly(
                    "3: scur=2 qcur=0 slim=10 / scur=3 qcur=1 slim=20",
                    "10: scur=2 qcur=0 slim=10 / scur=10 qcur=8 slim=20",
                    "20: scur=2 qcur=0 slim=10 / scur=20 qcur=18 slim=20",
                    "-1: scur=10 qcur=0 slim=10", "-2: scur=9 qcur=0 slim=10", "-3: scur=9 qcur=0 slim=10",
                    "-4: scur=8 qcur=0 slim=10", "-5: scur=8 qcur=0 slim=10", "-6: scur=7 qcur=0 slim=10");
        });
    }

    /**
     * A {@code minconn} without {@code maxconn} (or above it) is the server's maxconn, a static limit, as haproxy
     * settles it: with fullconn 20, five requests are three at the server and two in a queue, and slim shows 3.
     */
    @Test
    void minconnAloneIsTheLimit() throws Exception {
        withFullconn20("minconn 3", (cli, fe, s1, clients) -> {
            for (int i = 0; i < 5; i++) {
                clients.add(HttpClientConn.open(fe).send(HttpKit.get("/" + i)));
            }
            assertThat(awaitStat(cli, "l/BACKEND", "scur=5 slim=20", "scur", "slim")).isEqualTo("scur=5 slim=20");
            assertThat(awaitStat(cli, "l/s1", "scur=3 slim=3", "scur", "slim")).isEqualTo("scur=3 slim=3");
            // Two wait: in the backend's queue, or in s1's when a request picked s1 just as its last slot went to
            // another thread's (the five arrive at once on two threads).
            Map<String, String> be = stat(cli, "l/BACKEND");
            Map<String, String> s = stat(cli, "l/s1");
            assertThat(Integer.parseInt(be.get("qcur")) + Integer.parseInt(s.get("qcur"))).as(be + " / " + s).isEqualTo(2);
        });
    }

    /**
     * The server connection counters of {@code show stat} under the same traffic as haproxy's (one thread, {@code
     * http-reuse safe}): three requests held at once (used_conn_cur 3, need_conn_est 3), then idle (idle_conn_cur and
     * srv_icur 3), then five requests on one keep-alive client connection: under safe its first request takes no idle
     * connection but opens one (connect 4), the next ones reuse (reuse 4), and the idle connections end up safe.
     * HAProxy 2.6 has no used_max column: its max_used_conns feeds need_conn_est only.
     */
    @Test
    void connectionCountersFollowTheTraffic() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        String[] f = {"scur", "smax", "idle_conn_cur", "safe_conn_cur", "used_conn_cur", "need_conn_est", "srv_icur", "reuse", "connect"};
        // need_conn_est decays at each pool-purge-delay (5 s): not looked at once the test may have taken that long
        String[] later = {"scur", "smax", "idle_conn_cur", "safe_conn_cur", "used_conn_cur", "srv_icur", "reuse", "connect"};
        List<HttpClientConn> clients = new ArrayList<>();
        try (Held s1 = Held.start("s1");
             FulcrumProcess proxy = HttpKit.serve("""
                     global
                         nbthread 1
                         stats socket %s level admin
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 30s
                         timeout server 30s
                     listen l
                         bind 127.0.0.1:%d
                         http-reuse safe
                         server s1 127.0.0.1:%d
                     """.formatted(cli, fe, s1.origin.port()), fe)) {
            for (int i = 0; i < 3; i++) {
                HttpClientConn c = HttpClientConn.open(fe);
                clients.add(c);
                c.send(HttpKit.get("/held"));
            }
            awaitReceived(3, s1);
            List<String> seen = new ArrayList<>();
            seen.add(fields(stat(cli, "l/s1"), f));
            s1.gate.release(3);
            for (HttpClientConn c : clients) {
                assertThat(c.read().status()).isEqualTo(200);
            }
            seen.add(awaitStat(cli, "l/s1", "scur=0 smax=3 idle_conn_cur=3 safe_conn_cur=0 used_conn_cur=0 need_conn_est=3 "
                    + "srv_icur=3 reuse=0 connect=3", f));
            s1.gate.release(1000);
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                for (int i = 0; i < 5; i++) {
                    assertThat(c.exchange(HttpKit.get("/ka")).status()).isEqualTo(200);
                }
                seen.add(awaitStat(cli, "l/s1", "scur=0 smax=3 idle_conn_cur=0 safe_conn_cur=3 used_conn_cur=0 srv_icur=3 "
                        + "reuse=4 connect=4", later));
            }
            assertThat(seen).containsExactly(
                    "scur=3 smax=3 idle_conn_cur=0 safe_conn_cur=0 used_conn_cur=3 need_conn_est=3 srv_icur=0 reuse=0 connect=3",
                    "scur=0 smax=3 idle_conn_cur=3 safe_conn_cur=0 used_conn_cur=0 need_conn_est=3 srv_icur=3 reuse=0 connect=3",
                    "scur=0 smax=3 idle_conn_cur=0 safe_conn_cur=3 used_conn_cur=0 srv_icur=3 reuse=4 connect=4");
        } finally {
            for (HttpClientConn c : clients) {
                c.close();
            }
        }
    }
}
