package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code maxconn}, {@code ulimit-n}, {@code fd-hard-limit} and {@code strict-limits}: the automatic maxconn and the
 * descriptors counted as HAProxy counts them ({@code show info}'s Maxconn, Hard_maxconn, Maxsock, Ulimit-n), and a
 * limit the system refuses, fatal unless {@code no strict-limits}. Each config has two threads, one bind and a stats
 * socket (maxconn 10): 22 descriptors of its own plus 3 a thread. Passes against haproxy ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FdLimitsIT {

    private static String config(Path sock, int port, String globals) {
        return TcpProxyKit.answering(port, "nbthread 2\nstats socket " + sock + "\n" + globals);
    }

    private static Map<String, String> info(String globals) throws Exception {
        return info(globals, "");
    }

    /** {@code show info}'s fields (and the process's stderr and limit) with {@code sections} after the config's own. */
    private static Map<String, String> info(String globals, String sections) throws Exception {
        Path sock = Files.createTempDirectory("fulcrum-fd").resolve("s.sock");
        int port = freePort();
        try (FulcrumProcess p = TcpProxyKit.serve(config(sock, port, globals) + sections, port)) {
            Map<String, String> fields = new HashMap<>();
            for (String line : CliClient.send(sock, "show info").split("\n")) {
                int colon = line.indexOf(": ");
                if (colon > 0) {
                    fields.put(line.substring(0, colon), line.substring(colon + 2));
                }
            }
            fields.put("stderr", p.stderr());
            fields.put("limit", softLimit(p.pid()));
            return fields;
        }
    }

    @Test
    void withoutMaxconnItIsWhatTheHardLimitLeavesAfterTheConfigsOwnDescriptors() throws Exception {
        assumeTrue(Long.parseLong(softLimit(ProcessHandle.current().pid())) >= 5000, "a limit of 5000 open files at least");
        Map<String, String> info = info("fd-hard-limit 5000");
        assertThat(info.get("Maxconn")).isEqualTo("2486"); // (5000 - 22 - 2 * 3) / 2
        assertThat(info.get("Hard_maxconn")).isEqualTo("2486");
        assertThat(info.get("Maxsock")).isEqualTo("5000");
        assertThat(info.get("Ulimit-n")).isEqualTo("5000");
    }

    @Test
    void aSetMaxconnGivesMaxsockAndTheLimitAskedFor() throws Exception {
        Map<String, String> info = info("maxconn 100");
        assertThat(info.get("Maxconn")).isEqualTo("100");
        assertThat(info.get("Maxsock")).isEqualTo("228"); // 22 + 2 * 100 + 2 * 3
        assertThat(info.get("Ulimit-n")).isEqualTo("228");
        Map<String, String> set = info("maxconn 100\nulimit-n 3000");
        assertThat(set.get("Ulimit-n")).isEqualTo("3000");
        assertThat(set.get("Maxsock")).isEqualTo("228");
    }

    /**
     * A peers section with a local peer sets aside three descriptors a peer beside its listener, an agent check two
     * and a health check one, as HAProxy 2.6 counts them (tools/cli-diff.py found the agents and the peers short).
     */
    @Test
    void peersAndAgentsCountAsHaproxyCountsThem() throws Exception {
        int refused = FulcrumProcess.refusedPort();
        Map<String, String> info = info("maxconn 100\nlocalpeer local", """
                backend be
                    server s1 127.0.0.1:%d check agent-check agent-port %d
                peers pr
                    peer local 127.0.0.1:%d
                    peer other 127.0.0.1:%d
                """.formatted(refused, refused, freePort(), freePort()));
        assertThat(info.get("Maxsock")).isEqualTo("238"); // 228 + the peers' listener + 2 peers * 3 + check 1 + agent 2
    }

    @Test
    void aLimitTheSystemRefusesStopsTheStart() throws Exception {
        long beyond = beyondTheSystemsMost();
        FulcrumProcess p = TcpProxyKit.start(config(Files.createTempDirectory("fulcrum-fd").resolve("s.sock"), freePort(),
                "ulimit-n " + beyond));
        try {
            assertThat(p.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            assertThat(p.stderr()).containsPattern("\\[ALERT] +\\(\\d+\\) : \\[[^]]+\\.main\\(\\)] Cannot raise FD limit to "
                    + beyond + ", limit is \\d+\\.");
        } finally {
            p.close();
        }
    }

    @Test
    void fdHardLimitBelowWhatMaxconnNeedsStopsTheStart() throws Exception {
        FulcrumProcess p = TcpProxyKit.start(config(Files.createTempDirectory("fulcrum-fd").resolve("s.sock"), freePort(),
                "fd-hard-limit 5000\nmaxconn 10000"));
        try {
            assertThat(p.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            assertThat(p.stderr()).containsPattern("Cannot raise FD limit to 20028, limit is 5000\\.");
        } finally {
            p.close();
        }
    }

    @Test
    void withoutStrictLimitsARefusalIsAWarningAndTheProcessServes() throws Exception {
        long beyond = beyondTheSystemsMost();
        Map<String, String> info = info("ulimit-n " + beyond + "\nno strict-limits");
        assertThat(info.get("stderr")).containsPattern("\\[WARNING] +\\(\\d+\\) : \\[[^]]+\\.main\\(\\)] Cannot raise FD limit to "
                + beyond + ", limit is " + info.get("limit") + "\\.");
        assertThat(info.get("Ulimit-n")).as("what the system gave").isEqualTo(info.get("limit"));
    }

    /**
     * A limit no process may ask for: above fs.nr_open. (Read by lines: Files.readString reads "1" of
     * /proc/sys/fs/nr_open.)
     */
    private static long beyondTheSystemsMost() throws IOException {
        return Long.parseLong(Files.readAllLines(Path.of("/proc/sys/fs/nr_open")).getFirst().trim()) + 1;
    }

    /** The soft limit on open files of process {@code pid}. */
    private static String softLimit(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/limits"))) {
            if (line.startsWith("Max open files")) {
                return line.substring("Max open files".length()).trim().split("\\s+")[0];
            }
        }
        throw new AssertionError("no open files limit");
    }
}
