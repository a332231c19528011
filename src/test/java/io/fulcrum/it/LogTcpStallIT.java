package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TCP syslog server ({@code log tcp@}) that stops reading costs log lines, never requests: once the kernel's buffers
 * and the target's ring are full, new lines are dropped and counted by the ring ({@code show events}), as HAProxy's
 * sinks do (HAProxy's {@code DroppedLogs} counts the lines a target refuses, not those a ring drops: it stays 0), while
 * the requests are answered at their usual pace. When the server reads again, the ring announces what it dropped
 * ("N events dropped") and the lines flow again. Run with -Dit.proxy=haproxy too.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogTcpStallIT {
    @TempDir
    Path dir;

    @Test
    void aServerThatStopsReadingCostsLinesNotRequests() throws Exception {
        int fe = freePort();
        Path cli = dir.resolve("admin.sock");
        try (ServerSocketChannel syslog = ServerSocketChannel.open()) {
            // a small receive window, so that the proxy's side fills after a few megabytes at most
            syslog.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            syslog.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) syslog.getLocalAddress()).getPort();
            // 4 KB lines: the few megabytes the kernel buffers take fill within a thousand requests
            String config = """
                    global
                        stats socket %s level admin
                        log tcp@127.0.0.1:%d len 8192 local0
                    defaults
                        mode http
                        timeout client 10s
                        log global
                    frontend fe
                        bind 127.0.0.1:%d
                        capture request header p len 1000
                        log-format "%%HU %%[capture.req.hdr(0)] %%[capture.req.hdr(0)] %%[capture.req.hdr(0)] %%[capture.req.hdr(0)]"
                        http-request return status 200
                    """.formatted(cli, port, fe);
            String pad = "p: " + "x".repeat(1000) + "\r\n";
            try (FulcrumProcess proxy = TcpProxyKit.serve(config, fe);
                 SocketChannel server = syslog.accept();
                 HttpClientConn c = HttpClientConn.open(fe)) {
                long[] micros = new long[3000];
                for (int i = 0; i < micros.length; i++) {
                    long start = System.nanoTime();
                    assertThat(c.exchange(get("/" + i).replace("\r\n\r\n", "\r\n" + pad + "\r\n")).status()).isEqualTo(200);
                    micros[i] = (System.nanoTime() - start) / 1000;
                }
                // Every request was answered although the server took nothing; those of the last third, long after the
                // target filled, at a local request's pace (the median: the box is shared and busy, single ones vary).
                long[] last = Arrays.copyOfRange(micros, 2000, 3000);
                Arrays.sort(last);
                assertThat(last[last.length / 2]).as("median of the last 1000 requests, us").isLessThan(50_000);
                assertThat(ringDropped(cli)).isPositive();
                assertThat(CliClient.send(cli, "show info")).contains("\nDroppedLogs: 0\n");

                // The server reads again: what was dropped is announced, then the new lines come.
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                ByteBuffer buf = ByteBuffer.allocate(1 << 16);
                server.configureBlocking(false);
                long deadline = System.nanoTime() + 60_000_000_000L;
                int asked = 0;
                while (!got.toString(StandardCharsets.ISO_8859_1).contains("/resumed ") && System.nanoTime() < deadline) {
                    buf.clear();
                    int n = server.read(buf);
                    if (n > 0) {
                        got.write(buf.array(), 0, n);
                    } else if (n == 0) {
                        Thread.sleep(20);
                        if (asked++ % 50 == 0) {
                            assertThat(c.exchange(get("/resumed")).status()).isEqualTo(200); // a line once the backlog is read
                        }
                    } else {
                        break;
                    }
                }
                String text = got.toString(StandardCharsets.ISO_8859_1);
                assertThat(text).contains("/resumed ");
                Matcher m = Pattern.compile("\n<133>[^\n]*: (\\d+) events? dropped\n").matcher(text);
                assertThat(m.find()).as("an announcement of the dropped lines in:\n" + tail(text)).isTrue();
                assertThat(Long.parseLong(m.group(1))).isPositive();
                assertThat(ringDropped(cli)).isZero();
                assertThat(CliClient.send(cli, "show info")).contains("\nDroppedLogs: 0\n");
            }
        }
    }

    private static String tail(String text) {
        return text.length() < 2000 ? text : text.substring(text.length() - 2000);
    }

    /** The count of ring#1's line in {@code show events}. */
    private static long ringDropped(Path cli) throws Exception {
        String list = CliClient.send(cli, "show events");
        Matcher m = Pattern.compile("ring#1 +: type=buffer, (\\d+) dropped").matcher(list);
        assertThat(m.find()).as(list).isTrue();
        return Long.parseLong(m.group(1));
    }
}
