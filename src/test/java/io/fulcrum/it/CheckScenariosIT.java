package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health checks driven by check servers the test controls, as haproxy 2.6 runs them: a flapping server held UP (then
 * DOWN) by rise/fall, with its chkfail/chkdown counters and its traffic; {@code observe layer7} with {@code on-error
 * fail-check} and {@code sudden-death}; how often checks come with {@code fastinter} and {@code downinter}; servers
 * that {@code track} a server taken down by its check (chained, in another backend, a backup). The log lines word
 * for word, {@code show stat} and where the clients' requests go. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckScenariosIT {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    private static final String FAIL = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

    @Test
    void riseAndFallHoldAFlappingServer() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        AtomicInteger checks = new AtomicInteger();
        AtomicInteger mode = new AtomicInteger(); // 0: alternate pass/fail, 1: fail
        try (Origin s1 = server("s1", n -> mode.get() == 1 || checks.incrementAndGet() % 2 == 0 ? FAIL : OK);
             Origin b1 = server("b1", n -> OK)) {
            int fe = freePort();
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "http", fe, "be") + """
                    backend be
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 150 rise 3 fall 3
                        server b1 127.0.0.1:%d backup
                    """.formatted(s1.port(), b1.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                awaitAtLeast(checks, 12, p);
                Map<String, String> row = row(cli, "be/s1");
                assertThat(row.get("status")).isIn("UP", "UP 2/3");
                assertThat(row).containsEntry("chkdown", "0");
                assertThat(Integer.parseInt(row.get("chkfail"))).isGreaterThanOrEqualTo(5);
                assertThat(request(fe)).isEqualTo("s1");
                assertThat(checkLines(p.stderr(), "be/s1")).as(p.stderr()).contains(
                        "Health check for server be/s1 failed, reason: Layer7 wrong status, code: 503, info: \"Service Unavailable\", status: 2/3 UP.",
                        "Health check for server be/s1 succeeded, reason: Layer7 check passed, code: 200, status: 3/3 UP.");
                assertThat(p.stderr()).doesNotContain("is DOWN");

                mode.set(1);
                p.awaitStderr("Server be/s1 is DOWN");
                assertThat(request(fe)).isEqualTo("b1");
                int failedBefore = Integer.parseInt(row(cli, "be/s1").get("chkfail"));
                checks.set(0);
                mode.set(0);
                awaitAtLeast(checks, 12, p);
                row = row(cli, "be/s1");
                assertThat(row.get("status")).isIn("DOWN", "DOWN 1/3");
                assertThat(row).containsEntry("chkdown", "1");
                // a failure counts while the health is above 0: at "1/3 DOWN" too
                assertThat(Integer.parseInt(row.get("chkfail"))).isGreaterThanOrEqualTo(failedBefore + 4);
                assertThat(request(fe)).isEqualTo("b1");
                assertThat(checkLines(p.stderr(), "be/s1")).contains(
                        "Health check for server be/s1 succeeded, reason: Layer7 check passed, code: 200, status: 1/3 DOWN.",
                        "Health check for server be/s1 failed, reason: Layer7 wrong status, code: 503, info: \"Service Unavailable\", status: 0/3 DOWN.");
            }
        }
    }

    @Test
    void observeLayer7OnError() throws Exception {
        try (Origin failCheck = server("a", n -> OK, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
             Origin suddenDeath = server("b", n -> OK, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")) {
            int fe = freePort();
            int fe2 = freePort();
            String cfg = CheckKit.config("", "http", fe, "fc") + """
                    frontend fe2
                        bind 127.0.0.1:%d
                        default_backend sd
                    backend fc
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 20s rise 3 fall 3 observe layer7 error-limit 1 on-error fail-check
                    backend sd
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 20s rise 3 fall 3 observe layer7 error-limit 1 on-error sudden-death
                    """.formatted(fe2, failCheck.port(), suddenDeath.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server fc/s1 succeeded");
                p.awaitStderr("Health check for server sd/s1 succeeded");
                assertThat(requestStatus(fe)).isEqualTo("500");
                p.awaitStderr("Health check for server fc/s1 failed");
                assertThat(requestStatus(fe2)).isEqualTo("500");
                p.awaitStderr("Health check for server sd/s1 failed");
                assertThat(p.stderr()).doesNotContain("is DOWN");
                assertThat(checkLines(p.stderr(), "fc/s1")).contains("Health check for server fc/s1 failed, reason: Health analyze, "
                        + "info: \"Detected 1 consecutive errors, last one was: Wrong http response\", status: 2/3 UP.");
                assertThat(checkLines(p.stderr(), "sd/s1")).contains("Health check for server sd/s1 failed, reason: Health analyze, "
                        + "info: \"Detected 1 consecutive errors, last one was: Wrong http response\", status: 1/3 UP.");
            }
        }
    }

    @Test
    void fastinterAndDowninterSetTheirPace() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        AtomicInteger failing = new AtomicInteger();
        try (Origin s1 = server("s1", n -> {
            checks.incrementAndGet();
            return failing.get() == 1 ? FAIL : OK;
        })) {
            int fe = freePort();
            String cfg = CheckKit.config("", "http", fe, "be") + """
                    backend be
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 3s fastinter 100 downinter 250 rise 2 fall 4
                    """.formatted(s1.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                awaitAtLeast(checks, 1, p);
                Thread.sleep(200);
                checks.set(0);
                Thread.sleep(2500);
                assertThat(checks.get()).as("checks in 2.5 s at inter 3s").isLessThanOrEqualTo(2);

                failing.set(1);
                long t0 = System.nanoTime();
                p.awaitStderr("Server be/s1 is DOWN");
                // the first failure comes at inter (3 s at most), the next three at fastinter
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5500);
                checks.set(0);
                Thread.sleep(2500);
                assertThat(checks.get()).as("checks in 2.5 s at downinter 250").isBetween(4, 12);
            }
        }
    }

    @Test
    void trackingFollowsTheCheckedServer() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        AtomicInteger failing = new AtomicInteger();
        try (Origin s1 = server("s1", n -> failing.get() == 1 ? FAIL : OK);
             Origin s2 = server("s2", n -> OK);
             Origin s3 = server("s3", n -> OK);
             Origin b1 = server("b1", n -> OK)) {
            int fe = freePort();
            int fe2 = freePort();
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "http", fe, "be") + """
                    frontend fe2
                        bind 127.0.0.1:%d
                        default_backend other
                    backend be
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                        server s2 127.0.0.1:%d track be/s1
                        server b1 127.0.0.1:%d backup track be/s2
                    backend other
                        server s3 127.0.0.1:%d track be/s2
                    """.formatted(fe2, s1.port(), s2.port(), b1.port(), s3.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server be/s1 succeeded");
                assertThat(request(fe2)).isEqualTo("s3");
                int from = p.stderr().length();
                failing.set(1);
                p.awaitStderr("Server other/s3 is DOWN");
                p.awaitStderr("backend 'other' has no server available!");
                assertThat(requestStatus(fe)).isEqualTo("503");
                assertThat(requestStatus(fe2)).isEqualTo("503");
                assertThat(row(cli, "be/s2")).containsEntry("status", "DOWN");
                failing.set(0);
                p.awaitStderr("Server other/s3 is UP");
                assertThat(request(fe2)).isEqualTo("s3");
                assertThat(stateChanges(p.stderr().substring(from))).containsExactly(
                        "[WARNING] Server be/s1 is DOWN. 1 active and 1 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[WARNING] Server be/s2 is DOWN via be/s1. 0 active and 1 backup servers left. Running on backup."
                                + " 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[WARNING] Server other/s3 is DOWN via be/s2. 0 active and 0 backup servers left."
                                + " 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[ALERT] backend 'other' has no server available!",
                        "[WARNING] Backup Server be/b1 is DOWN via be/s2. 0 active and 0 backup servers left."
                                + " 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[ALERT] backend 'be' has no server available!",
                        "[WARNING] Server be/s1 is UP. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Server be/s2 is UP via be/s1. 2 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Server other/s3 is UP via be/s2. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Backup Server be/b1 is UP via be/s2. 2 active and 1 backup servers online. 0 sessions requeued, 0 total in queue.");
            }
        }
    }

    /** A server whose health checks ({@code GET /health}) get {@code health.apply(n)}, its traffic 200 with its name. */
    private static Origin server(String name, IntFunction<String> health) throws IOException {
        return server(name, health, "HTTP/1.1 200 OK\r\nContent-Length: " + name.length() + "\r\nConnection: close\r\n\r\n" + name);
    }

    private static Origin server(String name, IntFunction<String> health, String traffic) throws IOException {
        AtomicInteger n = new AtomicInteger();
        return Origin.start(s -> {
            String head = CheckKit.readHead(s.getInputStream());
            if (head.isEmpty()) {
                return;
            }
            send(s, head.startsWith("GET /health ") ? health.apply(n.incrementAndGet()) : traffic);
        });
    }

    private static void awaitAtLeast(AtomicInteger count, int n, FulcrumProcess p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (count.get() < n) {
            assertThat(System.nanoTime()).as("only " + count.get() + " checks\n" + p.stderr()).isLessThan(deadline);
            Thread.sleep(50);
        }
        Thread.sleep(100); // the last check's result is logged
    }

    private static Map<String, String> row(Path cli, String server) throws IOException {
        return StatsIT.rows(CliClient.send(cli, "show stat")).get(server);
    }

    /** The body of a client's request through the frontend (the server's name). */
    private static String request(int fe) throws IOException {
        String answer = exchange(fe);
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }

    private static String requestStatus(int fe) throws IOException {
        return exchange(fe).substring(9, 12);
    }

    private static String exchange(int fe) throws IOException {
        try (Socket s = connect(fe)) {
            send(s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            return readToEof(s, 65536);
        }
    }

    /** The health check lines of {@code server}, pid and check duration left out. */
    private static List<String> checkLines(String stderr, String server) {
        List<String> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.contains("Health check for server " + server + " ")) {
                lines.add(line.replaceFirst("^\\[(\\w+)\\] +\\(\\d+\\) : ", "").replaceAll(", check duration: \\d+ms", ""));
            }
        }
        return lines;
    }

    /** The state-change lines of servers and backends, pid left out ({@code option log-health-checks}: no reason in them). */
    private static List<String> stateChanges(String stderr) {
        List<String> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if ((line.contains("Server ") || line.contains("backend '")) && !line.contains("Health check")) {
                lines.add(line.replaceFirst("^\\[(\\w+)\\] +\\(\\d+\\) : ", "[$1] "));
            }
        }
        return lines;
    }
}
