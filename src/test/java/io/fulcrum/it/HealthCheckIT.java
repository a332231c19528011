package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health checks against real origins: what an HTTP check sends, a server that stops answering taken out of
 * the traffic and put back when it answers again, and the lines logged as haproxy 2.6 words them (the tests pass
 * against haproxy with -Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HealthCheckIT {
    /** The defaults section of the TCP tests. */
    private static final String TCP_DEFAULTS = """
            defaults
                mode tcp
                timeout connect 1s
                timeout client 5s
                timeout server 5s
            """;

    private static void await(BooleanSupplier cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // generous: CI boxes are loaded
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    private static Map<String, Integer> spread(int fe, int n) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            try (Socket s = connect(fe)) {
                counts.merge(readToEof(s, 100), 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void httpCheckSendsItsRequestAndAWrongStatusTakesTheServerDown() throws Exception {
        LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
        String[] answer = {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"};
        try (Origin origin = Origin.start(s -> {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            int n = in.read(buf);
            got.add(n < 0 ? "" : new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            send(s, answer[0]);
        })) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode http
                        timeout connect 1s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                    backend be
                        option httpchk GET /health HTTP/1.1\\r\\nHost:\\ x
                        server s1 127.0.0.1:%d check inter 300 rise 1 fall 1
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(origin.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
                answer[0] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n";
                await(() -> p.stderr().contains("has no server available!"), "the server down"); // the last line the change prints
                assertThat(p.stderr()).contains("[ALERT]    (").contains(") : backend 'be' has no server available!");
                assertThat(p.stderr()).containsPattern("\\[WARNING\\] +\\(\\d+\\) : Server be/s1 is DOWN, reason: Layer7 wrong status, code: 503, "
                        + "info: \"Service Unavailable\", check duration: \\d+ms. 0 active and 0 backup servers left. 0 sessions active, "
                        + "0 requeued, 0 remaining in queue.");
                answer[0] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
                await(() -> p.stderr().contains("Server be/s1 is UP, reason: Layer7"), "the server up");
                assertThat(p.stderr()).containsPattern("Server be/s1 is UP, reason: Layer7 check passed, code: 200, check duration: \\d+ms. "
                        + "1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.");
            }
        }
    }

    @Test
    void aServerThatStopsAcceptingLeavesTheTrafficAndComesBack() throws Exception {
        int port2 = freePort();
        try (Origin a = Origin.start(s -> send(s, "a"))) {
            Origin b = Origin.start(port2, s -> send(s, "b"));
            int fe = freePort();
            String cfg = TCP_DEFAULTS + """
                    backend be
                        option log-health-checks
                        server s1 127.0.0.1:%d check inter 100 rise 2 fall 2
                        server s2 127.0.0.1:%d check inter 100 rise 2 fall 2
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(a.port(), port2, fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                assertThat(spread(fe, 4)).containsEntry("a", 2).containsEntry("b", 2);
                b.close();
                await(() -> p.stderr().contains("Server be/s2 is DOWN."), "s2 down");
                assertThat(p.stderr()).contains("Health check for server be/s2 failed, reason: Layer4 connection problem, "
                        + "info: \"Connection refused\", check duration: ");
                assertThat(p.stderr()).containsPattern("status: 0/2 DOWN.\n.*Server be/s2 is DOWN. 1 active and 0 backup servers left.");
                assertThat(spread(fe, 4)).containsOnlyKeys("a");
                b = Origin.start(port2, s -> send(s, "b"));
                await(() -> p.stderr().contains("Server be/s2 is UP."), "s2 up");
                assertThat(p.stderr()).contains("Health check for server be/s2 succeeded, reason: Layer4 check passed, check duration: ");
                assertThat(p.stderr()).contains("status: 1/2 DOWN.", "status: 2/2 UP.");
                assertThat(spread(fe, 4)).containsEntry("a", 2).containsEntry("b", 2);
            } finally {
                b.close();
            }
        }
    }

    /**
     * {@code init-state} (HAProxy 3.1's option; 2.6 refuses it): {@code down} starts a checked server one success short
     * of up, {@code fully-down} with no health at all, {@code fully-up} with all of it; the start itself is not logged.
     */
    @Test
    void initStateSetsTheHealthTheChecksStartFrom() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(TcpProxyKit.haproxy(), "HAProxy 2.6 does not know init-state");
        try (Origin a = Origin.start(s -> send(s, "a"))) {
            int fe = freePort();
            String cfg = TCP_DEFAULTS + """
                    backend be
                        option log-health-checks
                        server s1 127.0.0.1:%1$d check inter 300 rise 3 fall 2 init-state down
                        server s2 127.0.0.1:%1$d check inter 300 rise 3 fall 2 init-state fully-down
                        server s3 127.0.0.1:%1$d check inter 300 rise 3 fall 2 init-state fully-up
                    frontend fe
                        bind 127.0.0.1:%2$d
                        default_backend be
                    """.formatted(a.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                await(() -> p.stderr().contains("Server be/s2 is UP."), "s2 up");
                String err = p.stderr();
                // One success takes s1 up (its status counts then against fall, as HAProxy's); s2 needs three.
                // (Not on the next line: the servers' checks run on two loops, another server's line may come between.)
                assertThat(err).containsPattern("Health check for server be/s1 succeeded, reason: Layer4 check passed, check duration: \\d+ms,"
                        + " status: 2/2 UP.\n(.*\n)*.*Server be/s1 is UP.");
                assertThat(err.indexOf("be/s2 succeeded")).isLessThan(err.indexOf("status: 1/3 DOWN."));
                assertThat(err.indexOf("status: 1/3 DOWN.")).isLessThan(err.indexOf("status: 2/3 DOWN."));
                assertThat(err).doesNotContain("Server be/s3 is UP.", "Server be/s1 is DOWN", "Server be/s2 is DOWN");
                assertThat(err.indexOf("Server be/s1 is UP.")).isLessThan(err.indexOf("Server be/s2 is UP."));
            }
        }
    }

    /**
     * An explicit tcp-check's connection failures and timeouts say at which step and in which rule they happened, as
     * HAProxy's chk_report_conn_err() words them (a comment rule is a step, and the next rule takes its text); checks
     * cut by the process stopping are not reported.
     */
    @Test
    void explicitTcpCheckFailuresSayWhereTheyHappened() throws Exception {
        int refused = FulcrumProcess.refusedPort();
        try (Origin silent = Origin.start(s -> readToEof(s, 64)); // never answers
             Origin up = Origin.start(s -> { })) {
            int fe = freePort();
            String cfg = TCP_DEFAULTS + """
                        timeout check 500ms
                        option log-health-checks
                    backend pong
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect string +PONG comment "pong wanted"
                        server silent 127.0.0.1:%d check inter 300 rise 1 fall 1
                        server refused 127.0.0.1:%d check inter 300 rise 1 fall 1
                        server unreachable 255.255.255.255:11111 check inter 300 rise 1 fall 1
                    backend ports
                        option tcp-check
                        tcp-check connect
                        tcp-check comment "second connect"
                        tcp-check connect port %d
                        server s1 127.0.0.1:%d check inter 300 rise 1 fall 1
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend pong
                    """.formatted(silent.port(), refused, refused, up.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server pong/silent failed");
                p.awaitStderr("Health check for server pong/refused failed");
                p.awaitStderr("Health check for server pong/unreachable failed, reason: Layer4 connection problem, "
                        + "info: \"General socket error (Network is unreachable) at initial connection step of tcp-check\", check duration: ");
                p.awaitStderr("Health check for server ports/s1 failed");
                assertThat(p.stderr()).contains("Health check for server pong/silent failed, reason: Layer7 timeout, "
                        + "info: \" at step 2 of tcp-check (expect string '+PONG') comment: 'pong wanted'\", check duration: ");
                assertThat(p.stderr()).contains("Health check for server pong/refused failed, reason: Layer4 connection problem, "
                        + "info: \"Connection refused at initial connection step of tcp-check\", check duration: ");
                assertThat(p.stderr()).contains("Health check for server ports/s1 failed, reason: Layer4 connection problem, "
                        + "info: \"Connection refused at step 3 of tcp-check (connect port " + refused + ") comment: 'second connect'\", check duration: ");
                Thread.sleep(1000); // checks of the silent server run most of the time: one is cut by the stop
                p.signal("TERM");
                p.awaitExit(Duration.ofSeconds(10));
                assertThat(p.stderr()).doesNotContain("Layer7 invalid response");
            }
        }
    }

    /**
     * HAProxy names backup servers in its lines ("Backup Server be/b1 is DOWN", "Health check for backup server") and
     * says "conditionally succeeded" of a check that found the server going away (404 with disable-on-404).
     */
    @Test
    void backupServersAndConditionalSuccessesAreNamedAsHaproxyWordsThem() throws Exception {
        int backupPort = freePort();
        try (Origin gone = Origin.start(s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        })) {
            Origin b = Origin.start(backupPort, s -> {
                s.getInputStream().read(new byte[4096]);
                send(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            });
            int fe = freePort();
            String cfg = """
                    defaults
                        mode http
                        timeout connect 1s
                        timeout client 5s
                        timeout server 5s
                        timeout check 2s
                    backend be
                        option log-health-checks
                        option httpchk GET /
                        http-check disable-on-404
                        server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                        server b1 127.0.0.1:%d check inter 200 rise 1 fall 1 backup
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(gone.port(), backupPort, fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Server be/s1 is stopping");
                assertThat(p.stderr()).contains("Health check for server be/s1 conditionally succeeded, reason: Layer7 check "
                        + "conditionally passed, code: 404, check duration: ");
                b.close();
                p.awaitStderr("Backup Server be/b1 is DOWN.");
                assertThat(p.stderr()).contains("Health check for backup server be/b1 failed, reason: Layer4 connection problem");
                assertThat(p.stderr()).doesNotContainPattern("(?<!Backup )Server be/b1").doesNotContain("check for server be/b1");
                b = Origin.start(backupPort, s -> send(s, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
                p.awaitStderr("Backup Server be/b1 is UP.");
                assertThat(p.stderr()).contains("Health check for backup server be/b1 succeeded, reason: Layer7 check passed");
            } finally {
                b.close();
            }
        }
    }
}
