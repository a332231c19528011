package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the first checks leave, as haproxy 2.6's start_checks(): the health checks and agents of all servers, in the
 * order of the configuration, the k-th of n after k/n of the interval; {@code max-spread-checks} bounds that interval.
 * The check servers record when each first check arrives; the assertions compare spans and means with room for a
 * loaded box (the exact figures are in the comments). Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckSpreadIT {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** The check servers, in the order of their first checks. */
    private static final List<String> NAMES = List.of("s1", "s2", "s3", "s4", "s5", "agent", "s6");

    /** When each check server saw its first connection (nanoTime). */
    private final Map<String, Long> first = new ConcurrentHashMap<>();

    /** A check server: answers {@code answer}, after the request if it {@code reads} one (an agent is sent nothing). */
    private Origin origin(String name, boolean reads, String answer) throws IOException {
        return Origin.start(s -> {
            first.putIfAbsent(name, System.nanoTime());
            if (reads) {
                s.getInputStream().read(new byte[4096]);
            }
            send(s, answer);
        });
    }

    /**
     * s1..s5 with an HTTP check every 6 s, s5 with an agent too, s6 checked every 300 ms: seven first checks spread
     * over the 6 s (the shortest interval from 1 s up), s5's agent in the place after its health check, s6 last.
     */
    private List<Long> firstChecks(String global) throws Exception {
        List<Origin> servers = new ArrayList<>();
        try {
            StringBuilder lines = new StringBuilder();
            for (int i = 1; i <= 6; i++) {
                Origin o = origin("s" + i, true, "HTTP/1.0 200 OK\r\n\r\n");
                servers.add(o);
                lines.append("    server s").append(i).append(" 127.0.0.1:").append(o.port()).append(i == 6 ? " check inter 300" : " check inter 6s");
                if (i == 5) {
                    Origin agent = origin("agent", false, "up\n");
                    servers.add(agent);
                    lines.append(" agent-check agent-port ").append(agent.port()).append(" agent-inter 6s");
                }
                lines.append('\n');
            }
            int fe = freePort();
            String cfg = (global.isEmpty() ? "" : "global\n    " + global + "\n") + """
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                    backend be
                        option httpchk
                    %s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(lines.toString().stripTrailing(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
                while (first.size() < NAMES.size() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(first).as("first checks (stderr: %s)", p.stderr()).hasSize(NAMES.size());
            }
        } finally {
            for (Origin o : servers) {
                o.close();
            }
        }
        long t0 = first.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        List<Long> at = new ArrayList<>();
        for (String name : NAMES) {
            at.add((first.get(name) - t0) / MS);
        }
        return at;
    }

    private static double mean(List<Long> l) {
        return l.stream().mapToLong(Long::longValue).average().orElseThrow();
    }

    @Test
    void theFirstChecksOfAllServersAreSpreadOverTheInterval() throws Exception {
        List<Long> at = firstChecks("");
        // haproxy and Fulcrum: 0, 857, 1714, 2571, 3428, 4285, 5142 ms after the first.
        long span = at.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(span).as("first checks at %s ms", at).isBetween(2500L, 12_000L);
        assertThat(mean(at.subList(4, 7)) - mean(at.subList(0, 3))).as("first checks at %s ms", at).isGreaterThan(1500);
        assertThat(at.get(0)).as("s1 goes first: %s ms", at).isLessThan(500);
        assertThat(at.get(5) - at.get(4)).as("s5's agent has the place after its health check: %s ms", at).isGreaterThan(300);
        assertThat(at.get(6) - at.get(3)).as("s6, checked more often, still has its place: %s ms", at).isGreaterThan(1000);
    }

    @Test
    void maxSpreadChecksBoundsTheIntervalTheyAreSpreadOver() throws Exception {
        List<Long> at = firstChecks("max-spread-checks 600");
        // 0, 85, 171, 257, 342, 428, 514 ms after the first (5142 without max-spread-checks).
        long span = at.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(span).as("first checks at %s ms", at).isLessThan(2500);
    }
}
