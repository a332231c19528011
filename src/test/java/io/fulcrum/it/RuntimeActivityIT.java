package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show activity}, {@code show threads}, {@code show pools}, {@code show fd} and {@code set rate-limit} over a
 * real stats socket, with HAProxy 2.6's layouts (passes against haproxy: {@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuntimeActivityIT {
    /** HAProxy 2.6's show activity lines, in order. */
    private static final List<String> ACTIVITY = List.of("thread_id", "date_now", "ctxsw", "tasksw", "empty_rq", "long_rq",
            "loops", "wake_tasks", "wake_signal", "poll_io", "poll_exp", "poll_drop_fd", "poll_skip_fd", "conn_dead",
            "stream_calls", "pool_fail", "buf_wait", "cpust_ms_tot", "cpust_ms_1s", "cpust_ms_15s", "avg_loop_us",
            "accepted", "accq_pushed", "accq_full", "accq_ring", "fd_takeover");
    private static final Pattern POOL = Pattern.compile("  - Pool \\S+ \\(\\d+ bytes\\) : \\d+ allocated \\(\\d+ bytes\\), \\d+ used "
            + "\\(~\\d+ by thread caches\\), needed_avg \\d+, \\d+ failures, \\d+ users, @0x[0-9a-f]+( \\[SHARED\\])?");
    private static final Pattern POOL_TOTAL = Pattern.compile("Total: (\\d+) pools, \\d+ bytes allocated, \\d+ used \\(~\\d+ by thread caches\\)\\.");

    /** On epoll for Fulcrum (show fd's event counts are epoll's; on io_uring a unix stats socket has a loop of its own). */
    private static String config(Path sock, int fe) {
        return """
                global
                    nbthread 2
                    stats socket %s level admin
                %s
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain string ok
                """.formatted(sock, TcpProxyKit.haproxy() ? "" : "    no io-uring", fe);
    }

    @Test
    void activityThreadsPoolsAndFdShowTheLoopsAndTheirSockets() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-act").resolve("s.sock");
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(sock, fe), fe);
             HttpClientConn held = HttpClientConn.open(fe)) {
            assertThat(held.send(get("/")).read().status()).isEqualTo(200);
            try (HttpClientConn other = HttpClientConn.open(fe)) {
                assertThat(other.send(get("/")).read().status()).isEqualTo(200);
            }

            String activity = CliClient.send(sock, "show activity");
            List<String> lines = activity.lines().filter(l -> !l.isEmpty()).toList();
            assertThat(lines).extracting(l -> l.substring(0, l.indexOf(':'))).isEqualTo(ACTIVITY);
            assertThat(lines.get(0)).matches("thread_id: [12] \\(1\\.\\.2\\)");
            assertThat(lines.get(1)).matches("date_now: \\d{10}\\.\\d{6}");
            for (String l : lines.subList(2, lines.size())) {
                assertThat(l).matches("[a-z_0-9]+: \\d+ \\[ \\d+ \\d+ \\]"); // the total, then each thread's
            }
            Map<String, long[]> counters = counters(lines);
            assertThat(counters.get("accepted")[0]).isGreaterThanOrEqualTo(3); // two clients and this CLI connection
            assertThat(counters.get("accepted")[0]).isEqualTo(counters.get("accepted")[1] + counters.get("accepted")[2]);
            // with two threads, every connection is handed to a thread chosen for it (HAProxy: its accept queue),
            // counted by that thread; the clients and this CLI connection at least
            assertThat(counters.get("accq_pushed")[0]).isGreaterThanOrEqualTo(3)
                    .isEqualTo(counters.get("accq_pushed")[1] + counters.get("accq_pushed")[2]);
            assertThat(counters.get("loops")[0]).isPositive();
            assertThat(counters.get("poll_io")[0]).isPositive();

            String threads = CliClient.send(sock, "show threads");
            assertThat(threads).containsPattern("(?m)^[ *] Thread 1 : id=0x[0-9a-f]+ act=\\d glob=\\d wq=\\d+ rq=\\d+ ")
                    .containsPattern("(?m)^[ *] Thread 2 : id=0x[0-9a-f]+ act=\\d ")
                    .containsPattern("(?m)^      1/1    stuck=0 prof=0 harmless=[01] wantrdv=0$")
                    .containsPattern("(?m)^      1/2    stuck=0 prof=0 harmless=[01] wantrdv=0$")
                    .containsPattern("(?m)^             cpu_ns: poll=\\d+ now=\\d+ diff=\\d+$");
            assertThat(threads.lines().filter(l -> l.startsWith("* Thread")).count()).isEqualTo(1);

            List<String> pools = CliClient.send(sock, "show pools").lines().filter(l -> !l.isEmpty()).toList();
            assertThat(pools.get(0)).isEqualTo("Dumping pools usage. Use SIGQUIT to flush them.");
            assertThat(pools.subList(1, pools.size() - 1)).isNotEmpty().allMatch(l -> POOL.matcher(l).matches());
            Matcher total = POOL_TOTAL.matcher(pools.getLast());
            assertThat(total.matches()).as(pools.getLast()).isTrue();
            assertThat(Integer.parseInt(total.group(1))).isEqualTo(pools.size() - 2);

            String fds = CliClient.send(sock, "show fd");
            String listener = line(fds, "sock_accept_iocb) l.st=RDY fe=fe fam=ipv4 lport=" + fe);
            assertThat(listener).matches(" +\\d+ : st=0x[0-9a-f]{6}\\([a-zA-Z ]+ W:[sS][rR][aA] R:[sS][rR][aA]\\) ref=0 gid=1 "
                    + "tmask=0x[0-9a-f]+ umask=0x[0-9a-f]+ prmsk=0x[0-9a-f]+ pwmsk=0x[0-9a-f]+ owner=0x[0-9a-f]+ iocb=0x[0-9a-f]+\\(.*");
            String client = line(fds, "rport=" + held.socket.getLocalPort() + " fe=fe mux=H1 ");
            assertThat(client).contains("(sock_conn_iocb) back=0 ").contains(" fam=ipv4 lport=" + fe + " ").contains(" xprt=RAW");
            String fd = client.substring(0, client.indexOf(':')).strip();
            assertThat(CliClient.send(sock, "show fd " + fd)).isEqualTo(client + "\n\n");
            assertThat(CliClient.send(sock, "show fd -1")).isEqualTo("\n"); // one descriptor only, and none is -1
            if (!TcpProxyKit.haproxy()) {
                // What HAProxy 2.6 does not show: the I/O events the loop handed to each socket. The listener was woken
                // to accept (several connections may come in one event); each request on a connection is one at least.
                assertThat(evts(listener)).isGreaterThanOrEqualTo(1);
                long before = evts(client);
                assertThat(before).isGreaterThanOrEqualTo(1);
                for (int i = 0; i < 5; i++) {
                    assertThat(held.send(get("/")).read().status()).isEqualTo(200);
                }
                assertThat(evts(CliClient.send(sock, "show fd " + fd))).isGreaterThanOrEqualTo(before + 5);
            }
            // the implicit "default" resolvers section, unused, holds no socket (HAProxy connects a name server at its first query)
            assertThat(udpSockets(p.pid())).as("UDP sockets of the proxy").isZero();
            assertThat(CliClient.send(sock, "user; show fd")).isEqualTo("\nPermission denied\n\n");
            assertThat(CliClient.send(sock, "user; show activity")).contains("accepted: ");
        }
    }

    /**
     * A burst of connections to one listener is split evenly over the two threads (HAProxy's multi-queue accept
     * counts the listener's connections per thread), on both pollers.
     */
    @Test
    void aBurstOfConnectionsIsSpreadEvenlyOverTheThreads() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-mq").resolve("s.sock");
        int fe = freePort();
        for (String poller : TcpProxyKit.haproxy() ? List.of("") : List.of("    no io-uring", "    io-uring")) {
            String cfg = config(sock, fe).replace("    no io-uring\n", "").replace("    nbthread 2\n", "    nbthread 2\n" + poller + "\n");
            List<HttpClientConn> held = new java.util.ArrayList<>();
            try (FulcrumProcess p = TcpProxyKit.serve(cfg, fe)) {
                for (int i = 0; i < 40; i++) {
                    held.add(HttpClientConn.open(fe));
                }
                for (HttpClientConn c : held) {
                    assertThat(c.send(get("/")).read().status()).isEqualTo(200);
                }
                Map<String, Long> perThread = CliClient.send(sock, "show fd").lines().filter(l -> l.contains(" lport=" + fe + " rport="))
                        .collect(Collectors.groupingBy(l -> l.replaceAll(".* tmask=(0x[0-9a-f]+) .*", "$1"), Collectors.counting()));
                assertThat(perThread).as(poller).containsOnlyKeys("0x1", "0x2");
                assertThat(perThread.get("0x1")).as(poller).isBetween(19L, 21L);
            } finally {
                for (HttpClientConn c : held) {
                    c.close();
                }
            }
        }
    }

    /** maxconnrate, maxsessrate and maxsslrate are where set rate-limit starts from; the lower of the first two holds. */
    @Test
    void globalRateLimitsAreTheStartingValues() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-rate").resolve("s.sock");
        int fe = freePort();
        String cfg = config(sock, fe).replace("    nbthread 2\n", "    nbthread 2\n    maxconnrate 8\n    maxsessrate 4\n    maxsslrate 9\n");
        try (FulcrumProcess p = TcpProxyKit.serve(cfg, fe)) {
            assertThat(info(CliClient.send(sock, "show info"))).containsEntry("ConnRateLimit", "8").containsEntry("SessRateLimit", "4")
                    .containsEntry("SslRateLimit", "9");
            long start = System.nanoTime();
            for (int i = 0; i < 12; i++) { // 4 a second: the last ones wait in the backlog for at least 2 seconds
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.send(get("/")).read().status()).isEqualTo(200);
                }
            }
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1500);
        }
    }

    /** rate-limit sessions: the frontend's own rate holds, and show stat gives it as rate_lim. */
    @Test
    void frontendSessionRateLimit() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-rate").resolve("s.sock");
        int fe = freePort();
        String cfg = config(sock, fe).replace("    bind 127.0.0.1:" + fe + "\n", "    bind 127.0.0.1:" + fe + "\n    rate-limit sessions 4\n");
        try (FulcrumProcess p = TcpProxyKit.serve(cfg, fe)) {
            long start = System.nanoTime();
            for (int i = 0; i < 12; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.send(get("/")).read().status()).isEqualTo(200);
                }
            }
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1500);
            List<String> csv = CliClient.send(sock, "show stat").lines().toList();
            List<String> names = List.of(csv.get(0).substring(2).split(","));
            String row = csv.stream().filter(l -> l.startsWith("fe,FRONTEND,")).findFirst().orElseThrow();
            assertThat(row.split(",", -1)[names.indexOf("rate_lim")]).isEqualTo("4");
        }
    }

    @Test
    void rateLimitsAreShownAndTheConnectionRateHolds() throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-rate").resolve("s.sock");
        int fe = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(sock, fe), fe)) {
            String usage = """
                    'set rate-limit' only supports :
                       - 'connections global' to set the per-process maximum connection rate
                       - 'sessions global' to set the per-process maximum session rate
                       - 'ssl-sessions global' to set the per-process maximum SSL session rate
                       - 'http-compression global' to set the per-process maximum compression speed in kB/s
                    """;
            assertThat(CliClient.send(sock, "set rate-limit connections local 3")).isEqualTo(usage + "\n");
            assertThat(CliClient.send(sock, "set rate-limit nothing global 3")).isEqualTo(usage + "\n");
            assertThat(CliClient.send(sock, "set rate-limit sessions global;set rate-limit sessions global -2"))
                    .isEqualTo("Expects an integer value.\n\nValue out of range.\n\n");
            assertThat(CliClient.send(sock, "operator; set rate-limit sessions global 2")).isEqualTo("\nPermission denied\n\n");
            assertThat(CliClient.send(sock, "set rate-limit connections global 5;set rate-limit sessions global 7;"
                    + "set rate-limit ssl-sessions global 9;set rate-limit http-compression global 3")).isEqualTo("\n\n\n\n");
            Map<String, String> info = info(CliClient.send(sock, "show info"));
            assertThat(info).containsEntry("ConnRateLimit", "5").containsEntry("SessRateLimit", "7")
                    .containsEntry("SslRateLimit", "9").containsEntry("CompressBpsRateLim", "3072");

            long start = System.nanoTime();
            for (int i = 0; i < 16; i++) { // 5 a second: the last ones wait in the backlog for at least 2 seconds
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.send(get("/")).read().status()).isEqualTo(200);
                }
            }
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1500);
            info = info(CliClient.send(sock, "show info"));
            assertThat(Long.parseLong(info.get("BytesOutRate"))).isPositive();
            assertThat(Long.parseLong(info.get("MaxConnRate"))).isBetween(1L, 8L);

            assertThat(CliClient.send(sock, "set rate-limit connections global none;set rate-limit sessions global 0")).isEqualTo("\n\n");
            assertThat(info(CliClient.send(sock, "show info"))).containsEntry("ConnRateLimit", "0").containsEntry("SessRateLimit", "0");
        }
    }

    /** How many of the process's descriptors are UDP sockets (their inodes in /proc/net/udp or udp6). */
    private static long udpSockets(long pid) throws Exception {
        java.util.Set<String> udp = new java.util.HashSet<>();
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            Files.readAllLines(Path.of(table)).stream().skip(1).map(l -> l.trim().split("\\s+")).filter(f -> f.length > 9)
                    .forEach(f -> udp.add(f[9]));
        }
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (java.io.IOException e) {
                    return ""; // closed meanwhile
                }
            }).filter(link -> link.startsWith("socket:[") && udp.contains(link.substring(8, link.length() - 1))).count();
        }
    }

    private static String line(String text, String part) {
        return text.lines().filter(l -> l.contains(part)).findFirst()
                .orElseThrow(() -> new AssertionError("no line with '" + part + "' in:\n" + text));
    }

    /** The event counter that ends a show fd line of Fulcrum's. */
    private static long evts(String line) {
        Matcher m = Pattern.compile(" evts=(\\d+)$").matcher(line.strip());
        assertThat(m.find()).as(line).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Each line's total and per-thread values. */
    private static Map<String, long[]> counters(List<String> lines) {
        return lines.subList(2, lines.size()).stream().collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')),
                l -> Arrays.stream(l.substring(l.indexOf(':') + 1).replaceAll("[\\[\\]]", " ").trim().split(" +"))
                        .mapToLong(Long::parseLong).toArray()));
    }

    private static Map<String, String> info(String text) {
        return text.lines().filter(l -> l.contains(": ")).collect(Collectors.toMap(l -> l.substring(0, l.indexOf(": ")),
                l -> l.substring(l.indexOf(": ") + 2), (a, b) -> a));
    }
}
