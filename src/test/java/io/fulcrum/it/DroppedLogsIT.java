package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A log target that takes no more (a unix datagram socket nobody reads: the kernel queues a few datagrams, then
 * refuses the next ones) costs log lines, never requests: each line it refuses counts in {@code DroppedLogs} of
 * {@code show info}, and the requests are answered all along. Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DroppedLogsIT {

    /** Binds a unix datagram socket at argv[1] and keeps it without reading it until stdin closes. */
    private static final String HOLD_SOCKET = "import socket, sys\n"
            + "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
            + "s.bind(sys.argv[1])\n"
            + "print('bound', flush=True)\n"
            + "sys.stdin.read()\n";

    @Test
    void aTargetThatTakesNoMoreDropsLinesNotRequests() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-dropped");
        Path target = dir.resolve("log.sock");
        Path cli = dir.resolve("admin.sock");
        Process holder = new ProcessBuilder("python3", "-c", HOLD_SOCKET, target.toString()).redirectErrorStream(true).start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(6))).isEqualTo("bound\n");
            int fe = freePort();
            String config = """
                    global
                        log %s local0
                        stats socket %s level admin
                    defaults
                        mode http
                        log global
                        option httplog
                        timeout client 10s
                    frontend fe
                        bind 127.0.0.1:%d
                        http-request return status 200
                    """.formatted(target, cli, fe);
            try (FulcrumProcess proxy = HttpKit.serve(config, fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                long before = dropped(cli);
                assertThat(before).isZero();
                // the socket's queue holds net.unix.max_dgram_qlen datagrams (10 by default); the lines past them are dropped
                int queue = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/unix/max_dgram_qlen")).get(0).trim());
                answerAll(c, queue + 300);
                long first = awaitDropped(cli, 250);
                answerAll(c, 300);
                long second = awaitDropped(cli, first + 290); // the queue is full: every line of the batch
                assertThat(second).isLessThanOrEqualTo(queue + 600);
            }
        } finally {
            holder.getOutputStream().close();
            if (!holder.waitFor(10, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
            }
        }
    }

    /** Sends {@code n} requests one after the other on {@code c}; each is answered 200. */
    private static void answerAll(HttpClientConn c, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            assertThat(c.exchange(get("/" + i)).status()).isEqualTo(200);
        }
    }

    /** Waits until DroppedLogs is at least {@code least} (the lines of the last requests may still be on their way). */
    private static long awaitDropped(Path cli, long least) throws Exception {
        long n = dropped(cli);
        for (int i = 0; i < 200 && n < least; i++) {
            Thread.sleep(50);
            n = dropped(cli);
        }
        assertThat(n).isGreaterThanOrEqualTo(least);
        return n;
    }

    private static long dropped(Path cli) throws Exception {
        String info = CliClient.send(cli, "show info");
        return info.lines().filter(l -> l.startsWith("DroppedLogs: ")).mapToLong(l -> Long.parseLong(l.substring(13))).findFirst()
                .orElseThrow(() -> new AssertionError("no DroppedLogs in:\n" + info));
    }
}
