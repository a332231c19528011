package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code debug dev memstats} over a stats socket: HAProxy's layout (one line per allocating place and pool, the type,
 * size, calls and size per call in its columns), Fulcrum's places being the kinds of connections. The counts are the
 * buffers the connections really took: they appear with traffic and grow with it. Fulcrum only: Debian's haproxy is
 * built without DEBUG_MEM_STATS, which this command needs.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MemStatsIT {
    private static final Pattern LINE = Pattern.compile(
            "(\\S.*?) +P_ALLOC  size: +(\\d+)  calls: +(\\d+)  size/call: +(\\d+) (buf_direct|buf_heap)");

    @Test
    void countsTheBuffersOfEachKindOfConnection() throws Exception {
        assumeFalse(TcpProxyKit.haproxy(), "haproxy's Debian build has no debug dev memstats");
        Path dir = Files.createTempDirectory("fulcrum-memstats");
        Path admin = dir.resolve("admin.sock");
        int operator = freePort();
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve("""
                     global
                         stats socket %s level admin
                         stats socket ipv4@127.0.0.1:%d level operator
                     """.formatted(admin, operator) + HttpKit.config(fe, origin.port()), fe)) {
            String expert = "expert-mode on;";
            assertThat(CliClient.send(admin, "debug dev memstats")).isEqualTo("This command is restricted to expert mode only.\n\n");
            assertThat(CliClient.send(admin, expert + "debug dev memstats nothing")).isEqualTo("\nExpects either 'reset' or 'all'.\n\n");
            assertThat(stats(admin, "")).doesNotContainKey("frontend http conns buf_direct");

            requests(fe, 5);
            Map<String, long[]> after5 = stats(admin, "");
            long[] front = after5.get("frontend http conns buf_direct");
            assertThat(front[1]).as("calls").isGreaterThanOrEqualTo(5); // each connection read at least one buffer
            assertThat(front[0]).as("size").isGreaterThanOrEqualTo(front[1]);
            assertThat(after5.get("server conns buf_direct")[1]).isPositive();
            assertThat(after5).doesNotContainKey("frontend tcp conns buf_direct");

            requests(fe, 5);
            long[] after10 = stats(admin, "").get("frontend http conns buf_direct");
            assertThat(after10[1]).isGreaterThanOrEqualTo(front[1] + 5);
            assertThat(after10[0]).isGreaterThan(front[0]);

            // "all" shows the places without allocations too: two pools each, in the same order
            assertThat(stats(admin, " all").keySet()).containsExactly(
                    "frontend http conns buf_direct", "frontend http conns buf_heap", "frontend tcp conns buf_direct",
                    "frontend tcp conns buf_heap", "server conns buf_direct", "server conns buf_heap", "health checks buf_direct",
                    "health checks buf_heap", "stats sockets buf_direct", "stats sockets buf_heap");

            // resetting needs the admin level
            InetSocketAddress op = new InetSocketAddress("127.0.0.1", operator);
            assertThat(CliClient.send(op, "debug dev memstats reset")).isEqualTo("This command is restricted to expert mode only.\n\n");
            assertThat(CliClient.send(admin, expert + "operator;debug dev memstats reset")).isEqualTo("\n\nPermission denied\n\n");
            assertThat(CliClient.send(admin, expert + "debug dev memstats reset")).isEqualTo("\n\n");
            assertThat(stats(admin, "")).doesNotContainKey("frontend http conns buf_direct").doesNotContainKey("server conns buf_direct");
        }
    }

    /** {@code count} requests, each on a connection of its own. */
    private static void requests(int port, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                InputStream in = s.getInputStream();
                assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200").endsWith("hello");
            }
        }
    }

    /**
     * The lines of {@code debug dev memstats<args>}: by place and pool, size, calls and size per call. Every line has
     * HAProxy's layout, its type in the same column (after the longest place name and a space).
     */
    private static Map<String, long[]> stats(Path admin, String args) throws Exception {
        String answer = CliClient.send(admin, "expert-mode on;debug dev memstats" + args);
        assertThat(answer).startsWith("\n").endsWith("\n\n");
        List<String> lines = answer.substring(1, answer.length() - 1).lines().toList();
        Map<String, long[]> out = new LinkedHashMap<>();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            assertThat(m.matches()).as(l).isTrue();
            assertThat(l.indexOf("P_ALLOC")).as(l).isEqualTo("frontend http conns".length() + 1);
            long size = Long.parseLong(m.group(2));
            long calls = Long.parseLong(m.group(3));
            assertThat(Long.parseLong(m.group(4))).isEqualTo(calls == 0 ? 0 : size / calls);
            out.put(m.group(1) + " " + m.group(5), new long[] {size, calls});
        }
        return out;
    }
}
