package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timeouts of a check at each layer, as haproxy 2.6 reports them: a connect that never completes (a listener whose
 * accept queue is full: L4TOUT, at inter when that is shorter than timeout connect), a TLS check against a server that accepts and stays silent (L6TOUT), an HTTP check
 * answered by half a response (L7TOUT); {@code timeout check} counted from the connection on, the connect bounded by
 * its own timeout, as haproxy's documentation describes it; and the check protocols ({@code check-proto}, {@code http-check connect
 * proto}, {@code tcp-check connect proto}): the accepted values check their servers, the others are refused with
 * haproxy's alerts. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckTimeoutsIT {

    @Test
    void eachLayerTimesOut() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        try (TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             Origin silent = Origin.start(s -> readToEof(s, 1 << 16));
             Origin half = Origin.start(s -> {
                 s.getInputStream().read(new byte[4096]);
                 send(s, "HTTP/1.1 200 OK\r\nContent-Le");
                 readToEof(s, 1 << 16);
             })) {
            int fe = freePort();
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "tcp", fe, "l4") + """
                    backend l4
                        server s1 127.0.0.1:%d check inter 500 rise 1 fall 1
                    backend l6
                        server s1 127.0.0.1:%d check inter 500 rise 1 fall 1 check-ssl verify none
                    backend l7
                        option httpchk
                        server s1 127.0.0.1:%d check inter 500 rise 1 fall 1
                    """.formatted(hole.port(), silent.port(), half.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server l4/s1 failed, reason: Layer4 timeout, check duration: ");
                Matcher l4 = Pattern.compile("server l4/s1 failed, reason: Layer4 timeout, check duration: (\\d+)ms").matcher(p.stderr());
                assertThat(l4.find()).isTrue();
                // the connect takes at most the smaller of timeout connect and inter (500 ms), not timeout check (5 s)
                assertThat(Integer.parseInt(l4.group(1))).isLessThan(2500);
                p.awaitStderr("Health check for server l6/s1 failed, reason: Layer6 timeout, check duration: ");
                p.awaitStderr("Health check for server l7/s1 failed, reason: Layer7 timeout, check duration: ");
                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                for (String layer : List.of("4", "6", "7")) { // "* ": the next check is running
                    Map<String, String> row = rows.get("l" + layer + "/s1");
                    assertThat(row).containsEntry("status", "DOWN");
                    assertThat(row.get("check_status")).isIn("L" + layer + "TOUT", "* L" + layer + "TOUT");
                }
                for (String be : List.of("l4", "l6", "l7")) { // option log-health-checks: the reason is in the line above
                    assertThat(p.stderr()).contains("Server " + be + "/s1 is DOWN. 0 active and 0 backup servers left.");
                }
            }
        }
    }

    /**
     * A check whose connect waits for a SYN retransmission (a listener with a full accept queue, drained 2.5 s after it
     * served the previous check, which with inter 2 s leaves the next check's first SYN dropped) passes in more than its
     * {@code timeout check}: the connect has its own bound (timeout connect, 4 s), timeout check
     * counts from the connection ("an additional read timeout"). An answer later than timeout check after an immediate
     * connect is a layer-7 timeout about timeout check after the start.
     */
    @Test
    void timeoutCheckCountsFromTheConnection() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        Origin.Handler ok = s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
        };
        try (TcpProxyKit.SlowAccept slow = new TcpProxyKit.SlowAccept(Duration.ofMillis(2500), ok);
             Origin late = Origin.start(s -> {
                 Thread.sleep(1500);
                 ok.handle(s);
             })) {
            int fe = freePort();
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "tcp", fe, "slow") + """
                    backend slow
                        timeout connect 4s
                        timeout check 500ms
                        option httpchk
                        server s1 127.0.0.1:%d check inter 2s
                    backend late
                        timeout check 500ms
                        option httpchk
                        server s1 127.0.0.1:%d check inter 2s rise 1 fall 1
                    """.formatted(slow.port(), late.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                long deadline = System.nanoTime() + 45_000_000_000L;
                int longest = 0;
                while (longest < 700 && System.nanoTime() < deadline) {
                    Map<String, String> row = StatsIT.rows(CliClient.send(cli, "show stat")).get("slow/s1");
                    if (row.get("check_status").endsWith("L7OK") && !row.get("check_duration").isEmpty()) {
                        longest = Math.max(longest, Integer.parseInt(row.get("check_duration")));
                    }
                    Thread.sleep(100);
                }
                assertThat(longest).as("the longest passed check (ms)\n" + p.stderr()).isBetween(700, 4000);
                p.awaitStderr("Health check for server late/s1 failed, reason: Layer7 timeout, check duration: ");
                Matcher l7 = Pattern.compile("server late/s1 failed, reason: Layer7 timeout, check duration: (\\d+)ms").matcher(p.stderr());
                assertThat(l7.find()).isTrue();
                assertThat(Integer.parseInt(l7.group(1))).isBetween(450, 1400);
            }
        }
    }

    @Test
    void checkProtocols() throws Exception {
        String ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        try (Origin http = Origin.start(s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, ok);
        })) {
            int fe = freePort();
            String cfg = CheckKit.config("", "http", fe, "h1") + """
                    backend h1
                        option httpchk
                        server s1 127.0.0.1:%1$d check inter 500 check-proto h1
                    backend connecth1
                        option httpchk
                        http-check connect proto h1
                        server s1 127.0.0.1:%1$d check inter 500
                    backend none
                        option tcp-check
                        tcp-check connect proto none
                        tcp-check send "GET / HTTP/1.0\\r\\n\\r\\n"
                        tcp-check expect string 200
                        server s1 127.0.0.1:%1$d check inter 500 check-proto none
                    """.formatted(http.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server h1/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ");
                p.awaitStderr("Health check for server connecth1/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ");
                p.awaitStderr("Health check for server none/s1 succeeded, reason: Layer7 check passed, code: 0, info: \"(tcp-check)\", check duration: ");
            }
        }
        String backend = """
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 1s
                    timeout server 1s
                backend b
                    %s
                    %s
                    server s 127.0.0.1:1 check %s
                """;
        String incompatible = "config : config: backend 'b': server 's' uses an incompatible MUX protocol for the selected check type";
        assertThat(CheckKit.refusal(backend.formatted("option tcp-check", "", "check-proto h1"))).contains(incompatible);
        assertThat(CheckKit.refusal(backend.formatted("option httpchk", "", "check-proto none"))).contains(incompatible);
        assertThat(CheckKit.refusal(backend.formatted("option httpchk", "http-check connect proto none", "")))
                .contains("parsing [%s:8] : 'http-check connect' : 'proto' : invalid MUX protocol 'none' for http-check.");
        assertThat(CheckKit.refusal(backend.formatted("option tcp-check", "tcp-check connect proto h1", "")))
                .contains("parsing [%s:8] : 'tcp-check connect' : 'proto' : invalid MUX protocol 'h1' for tcp-check.");
        assertThat(CheckKit.refusal(backend.formatted("option tcp-check", "tcp-check connect proto bogus", "")))
                .contains("parsing [%s:8] : 'tcp-check connect' : 'proto' : unknown MUX protocol 'bogus'..");
        assertThat(CheckKit.refusal(backend.formatted("option httpchk", "http-check connect proto", "")))
                .contains("parsing [%s:8] : 'http-check connect' : 'proto' expects a MUX protocol as argument..");
        assertThat(CheckKit.refusal(backend.formatted("option httpchk", "", "check-proto bogus")))
                .contains("[%s:9] : 'server b/s' : 'check-proto' :  unknown MUX protocol 'bogus'.");
    }
}
