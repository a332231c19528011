package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option contstats}: while a long response is still flowing, the bytes already sent are in the counters of the
 * frontend, backend and server ({@code show stat} bout), in mode http and in mode tcp; without the option they come
 * at the end only. The counts at the end are the same either way. Passes against haproxy (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ContinuousStatsIT {
    private static final int PIECE = 100_000;
    private static final int PIECES = 4;

    @TempDir
    Path dir;

    @Test
    void runningTransfersAreCountedAsTheyGo() throws Exception {
        CountDownLatch finish = new CountDownLatch(1);
        int[] ports = {freePort(), freePort(), freePort()};
        Path sock = dir.resolve("stats.sock");
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Length: " + PIECE * PIECES + "\r\n\r\n");
                 for (int i = 0; i < PIECES - 1; i++) {
                     x.send(new byte[PIECE]);
                 }
                 finish.await(30, TimeUnit.SECONDS); // the last piece once the test has looked at the counters
                 x.send(new byte[PIECE]);
             });
             FulcrumProcess proxy = serve("""
                     global
                         stats socket %4$s level admin
                     defaults
                         timeout connect 2s
                         timeout client 30s
                         timeout server 30s
                     frontend http
                         mode http
                         bind 127.0.0.1:%1$d
                         option contstats
                         default_backend be_http
                     frontend tcp
                         mode tcp
                         bind 127.0.0.1:%2$d
                         option contstats
                         default_backend be_tcp
                     frontend plain
                         mode http
                         bind 127.0.0.1:%3$d
                         default_backend be_plain
                     backend be_http
                         mode http
                         server s1 127.0.0.1:%5$d
                     backend be_tcp
                         mode tcp
                         server s1 127.0.0.1:%5$d
                     backend be_plain
                         mode http
                         server s1 127.0.0.1:%5$d
                     """.formatted(ports[0], ports[1], ports[2], sock, origin.port()), ports[0])) {
            Socket[] clients = new Socket[3];
            long[] body = new long[3];
            for (int i = 0; i < 3; i++) {
                clients[i] = new Socket("127.0.0.1", ports[i]);
                clients[i].getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                body[i] = readBody(clients[i].getInputStream(), -1, PIECE * (PIECES - 1));
            }
            // The three responses wait for their last piece: contstats counted most of them already.
            String[][] running = {{"http/FRONTEND", "be_http/BACKEND", "be_http/s1"}, {"tcp/FRONTEND", "be_tcp/BACKEND", "be_tcp/s1"}};
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            Map<String, Map<String, String>> rows;
            do {
                Thread.sleep(200);
                rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            } while (!allAtLeast(rows, running, PIECE * (PIECES - 1)) && System.nanoTime() < deadline);
            for (String[] group : running) {
                for (String row : group) {
                    assertThat(Long.parseLong(rows.get(row).get("bout"))).as(row).isGreaterThanOrEqualTo(PIECE * (PIECES - 1));
                }
            }
            assertThat(rows.get("plain/FRONTEND").get("bout")).as("without contstats").isEqualTo("0");
            assertThat(rows.get("be_plain/s1").get("bout")).isEqualTo("0");

            finish.countDown();
            for (int i = 0; i < 3; i++) {
                readBody(clients[i].getInputStream(), body[i], PIECE * PIECES);
                clients[i].close();
            }
            // At the end, each counts its whole response once; the request (bin) too.
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            do {
                Thread.sleep(200);
                rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            } while (Long.parseLong(rows.get("plain/FRONTEND").get("bout")) < PIECE * PIECES && System.nanoTime() < deadline);
            long http = Long.parseLong(rows.get("http/FRONTEND").get("bout"));
            assertThat(http).isEqualTo(Long.parseLong(rows.get("plain/FRONTEND").get("bout")))
                    .isEqualTo(Long.parseLong(rows.get("be_http/s1").get("bout"))).isGreaterThan(PIECE * PIECES);
            assertThat(rows.get("http/FRONTEND").get("bin")).isEqualTo(rows.get("plain/FRONTEND").get("bin"));
            assertThat(Long.parseLong(rows.get("tcp/FRONTEND").get("bout"))).isGreaterThan(PIECE * PIECES)
                    .isEqualTo(Long.parseLong(rows.get("be_tcp/s1").get("bout")));
        }
    }

    private static boolean allAtLeast(Map<String, Map<String, String>> rows, String[][] groups, long n) {
        for (String[] group : groups) {
            for (String row : group) {
                if (Long.parseLong(rows.get(row).get("bout")) < n) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Reads a response's body until {@code n} of its bytes came; {@code got}: those read before, or -1 when its head
     * is still to come. Returns the body bytes read in all.
     */
    private static long readBody(InputStream in, long got, long n) throws Exception {
        if (got < 0) {
            int matched = 0; // of the "\r\n\r\n" that ends the head
            while (matched < 4) {
                int c = in.read();
                assertThat(c).as("the head goes on").isNotNegative();
                matched = c == "\r\n\r\n".charAt(matched) ? matched + 1 : c == '\r' ? 1 : 0;
            }
            got = 0;
        }
        byte[] b = new byte[65536];
        while (got < n) {
            int r = in.read(b, 0, (int) Math.min(b.length, n - got));
            assertThat(r).as("the body goes on").isPositive();
            got += r;
        }
        return got;
    }
}
