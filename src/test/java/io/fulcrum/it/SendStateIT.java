package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code http-check send-state}: the {@code x-haproxy-server-state} header a capturing server receives, as haproxy 2.6
 * words it: "UP 1/3" (going down), "UP", "NOLB" (disable-on-404), "DOWN", "DOWN 1/2" (going up); the server's own
 * port (not the check port), backend/server name, the node name, its weight over the weight of the servers in use.
 * Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SendStateIT {

    @Test
    void theServerStateHeaderSaysWhatHaproxySays() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        try (Origin origin = Origin.start(s -> {
            byte[] b = new byte[4096];
            int n = s.getInputStream().read(b);
            String req = new String(b, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
            int at = req.indexOf("x-haproxy-server-state: ");
            String state = at < 0 ? "" : req.substring(at + 24, req.indexOf("\r\n", at));
            seen.add(state);
            send(s, state.contains("name=be/s2;") ? "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    : state.contains("name=be/s3;") && !Files.exists(cli.resolveSibling("s3-up"))
                    ? "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    : "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        })) {
            int fe = freePort();
            int port = FulcrumProcess.refusedPort(); // the servers' own port: the checks go to the origin's
            String cfg = CheckKit.config("node n1\nstats socket " + cli + " level admin", "http", fe, "be") + """
                    backend be
                        option httpchk GET /state
                        http-check send-state
                        http-check disable-on-404
                        server s1 127.0.0.1:%d check port %d inter 300ms rise 2 fall 3 weight 10
                        server s2 127.0.0.1:%d check port %d inter 300ms
                        server s3 127.0.0.1:%d check port %d inter 300ms rise 2 fall 2
                    """.formatted(port, origin.port(), port, origin.port(), port, origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                String tail = "; address=127.0.0.1; port=" + port + "; name=be/%s; node=n1; weight=%s; scur=0/0; qcur=0";
                // the first check (which of the others are still in use by then is a race)
                await(seen, h -> h.startsWith("UP 1/3" + tail.formatted("s1", "10/").replaceFirst("; scur.*", "")));
                await(seen, "UP" + tail.formatted("s1", "10/10"));     // s2 drains, s3 is down: the servers in use weigh 10
                await(seen, "NOLB" + tail.formatted("s2", "1/10"));
                await(seen, "DOWN" + tail.formatted("s3", "1/10"));
                Files.createFile(cli.resolveSibling("s3-up"));
                await(seen, "DOWN 1/2" + tail.formatted("s3", "1/10"));
                await(seen, "UP" + tail.formatted("s3", "1/11"));
            }
        }
    }

    /**
     * During a slow start the header tells how far it has come ("; throttle=N%": the whole seconds since the server
     * came up over slowstart's, at least 1), and no more once it is over.
     */
    @Test
    void aSlowStartAddsTheThrottle() throws Exception {
        Path up = Files.createTempDirectory("fulcrum-send-state").resolve("up");
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        try (Origin origin = Origin.start(s -> {
            byte[] b = new byte[4096];
            int n = s.getInputStream().read(b);
            String req = new String(b, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
            int at = req.indexOf("x-haproxy-server-state: ");
            seen.add(at < 0 ? "" : req.substring(at + 24, req.indexOf("\r\n", at)));
            send(s, Files.exists(up) ? "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    : "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        })) {
            int fe = freePort();
            String cfg = CheckKit.config("", "http", fe, "be") + """
                    backend be
                        option httpchk GET /state
                        http-check send-state
                        server s1 127.0.0.1:%d check inter 300ms rise 1 fall 1 slowstart 4s
                    """.formatted(origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                await(seen, h -> h.startsWith("DOWN;"));
                assertThat(seen).noneMatch(h -> h.contains("throttle"));
                Files.createFile(up);
                await(seen, h -> h.matches("UP; .*; throttle=(25|50|75)%"));
                await(seen, h -> h.matches("UP; .*; qcur=0") && seen.stream().anyMatch(t -> t.contains("throttle")));
                List<Integer> throttles = seen.stream().filter(h -> h.contains("throttle="))
                        .map(h -> Integer.parseInt(h.replaceAll(".*; throttle=(\\d+)%$", "$1"))).toList();
                assertThat(throttles).as("%s", seen).isSorted().allMatch(t -> t == 1 || t == 25 || t == 50 || t == 75);
            }
        }
    }

    private static void await(Queue<String> seen, String header) throws InterruptedException {
        await(seen, header::equals);
        assertThat(seen).contains(header);
    }

    private static void await(Queue<String> seen, Predicate<String> header) throws InterruptedException {
        for (int i = 0; i < 600 && seen.stream().noneMatch(header); i++) {
            Thread.sleep(100);
        }
        assertThat(seen).anyMatch(header);
    }
}
