package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * External checks ({@code option external-check}) with small shell scripts as the command: the arguments and the
 * environment HAProxy gives it (and nothing of its own), the exit status deciding, a command outliving its timeout
 * killed, and the statuses {@code show stat} and the log lines report. Passes against haproxy too
 * ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExternalCheckIT {

    private static Path script(Path dir, String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    /** Waits for a file a script writes (it renames it into place once complete). */
    private static String await(Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file)) {
            assertThat(System.nanoTime()).as("waiting for " + file).isLessThan(deadline);
            Thread.sleep(50);
        }
        return Files.readString(file);
    }

    /** The lines a record script wrote, but the PWD its shell sets itself. */
    private static List<String> recorded(Path file) throws Exception {
        return Arrays.stream(await(file).split("\n")).filter(l -> !l.startsWith("PWD=")).toList();
    }

    @Test
    void theCommandGetsHaproxysArgumentsAndEnvironmentOnly() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-extchk");
        Path record = script(dir, "record.sh", """
                out=%s/$HAPROXY_SERVER_NAME
                { echo "args: $*"; /usr/bin/env | /usr/bin/sort; } > $out.tmp
                /bin/mv $out.tmp $out
                """.formatted(dir));
        int fe = freePort();
        int p1 = freePort();
        int p2 = freePort();
        String cfg = """
                global
                    external-check
                    insecure-fork-wanted
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                listen l1
                    id 5
                    bind 127.0.0.1:%d
                    option external-check
                    external-check command %s
                    server s1 127.0.0.1:%d check inter 300
                backend b2
                    id 6
                    option external-check
                    external-check command record.sh
                    external-check path "%s:/bin"
                    server s2 127.0.0.1:%d id 7 maxconn 7 check inter 300 ssl verify none
                """.formatted(fe, record, p1, dir, p2);
        try (FulcrumProcess p = serve(cfg, fe)) {
            assertThat(recorded(dir.resolve("s1"))).containsExactly(
                    "args: 127.0.0.1 " + fe + " 127.0.0.1 " + p1,
                    "HAPROXY_PROXY_ADDR=127.0.0.1",
                    "HAPROXY_PROXY_ID=5",
                    "HAPROXY_PROXY_NAME=l1",
                    "HAPROXY_PROXY_PORT=" + fe,
                    "HAPROXY_SERVER_ADDR=127.0.0.1",
                    "HAPROXY_SERVER_CURCONN=0",
                    "HAPROXY_SERVER_ID=1",
                    "HAPROXY_SERVER_MAXCONN=0",
                    "HAPROXY_SERVER_NAME=s1",
                    "HAPROXY_SERVER_PORT=" + p1,
                    "HAPROXY_SERVER_PROTO=h1",
                    "HAPROXY_SERVER_SSL=0",
                    "PATH=");
            // A backend has no listener: "NOT_USED" arguments, empty variables; the command found in the path.
            assertThat(recorded(dir.resolve("s2"))).containsExactly(
                    "args: NOT_USED NOT_USED 127.0.0.1 " + p2,
                    "HAPROXY_PROXY_ADDR=",
                    "HAPROXY_PROXY_ID=6",
                    "HAPROXY_PROXY_NAME=b2",
                    "HAPROXY_PROXY_PORT=",
                    "HAPROXY_SERVER_ADDR=127.0.0.1",
                    "HAPROXY_SERVER_CURCONN=0",
                    "HAPROXY_SERVER_ID=7",
                    "HAPROXY_SERVER_MAXCONN=7",
                    "HAPROXY_SERVER_NAME=s2",
                    "HAPROXY_SERVER_PORT=" + p2,
                    "HAPROXY_SERVER_PROTO=h1",
                    "HAPROXY_SERVER_SSL=1",
                    "PATH=" + dir + ":/bin");
        }
    }

    @Test
    void theExitStatusDecidesAndACommandPastItsTimeoutIsKilled() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-extchk");
        Path cli = dir.resolve("stats.sock");
        Path ended = dir.resolve("ended");
        Path ok = script(dir, "ok.sh", "exit 0\n");
        Path bad = script(dir, "bad.sh", "exit 3\n");
        Path slow = script(dir, "slow.sh", "/bin/sleep 3\necho end > " + ended + "\n");
        int fe = freePort();
        String cfg = """
                global
                    external-check
                    insecure-fork-wanted
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend ok
                backend ok
                    option external-check
                    external-check command %s
                    server s 127.0.0.1:1 check inter 500
                backend bad
                    option external-check
                    external-check command %s
                    server s 127.0.0.1:1 check inter 500
                backend slow
                    option external-check
                    external-check command %s
                    server s 127.0.0.1:1 check inter 500
                """.formatted(cli, fe, ok, bad, slow);
        try (FulcrumProcess p = serve(cfg, fe)) {
            p.awaitStderr("Server bad/s is DOWN, reason: External check error, code: 3, check duration: ");
            p.awaitStderr("Server slow/s is DOWN, reason: External check timeout, code: 0, check duration: ");
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
            assertThat(rows.get("ok/s")).containsEntry("status", "UP").containsEntry("check_code", "0")
                    .containsEntry("check_desc", "External check passed");
            assertThat(rows.get("bad/s")).containsEntry("status", "DOWN").containsEntry("check_code", "3")
                    .containsEntry("check_desc", "External check error");
            assertThat(rows.get("slow/s")).containsEntry("status", "DOWN").containsEntry("check_code", "0")
                    .containsEntry("check_desc", "External check timeout");
            assertThat(StatsIT.lastCheck(rows.get("ok/s"))).isEqualTo("PROCOK");
            assertThat(StatsIT.lastCheck(rows.get("bad/s"))).isEqualTo("PROCERR");
            assertThat(StatsIT.lastCheck(rows.get("slow/s"))).isEqualTo("PROCTOUT");
            Thread.sleep(3500); // past the slow script's end, had it not been killed
            assertThat(ended).as("the slow check was killed at its timeout").doesNotExist();
        }
    }
}
