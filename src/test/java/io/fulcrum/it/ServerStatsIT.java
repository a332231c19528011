package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code show stat} tells of servers and their backend as their state moves (checks, maintenance, drain,
 * tracking, the CLI's health and weight), compared field by field with what HAProxy 2.6 shows in the same
 * states (the test passes against it with -Dit.proxy=haproxy). "#" stands for any number (durations, ages).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerStatsIT {
    private static final List<String> FIELDS = List.of("status", "weight", "uweight", "act", "bck", "chkfail", "chkdown", "lastchg",
            "downtime", "check_status", "check_code", "check_duration", "last_chk", "check_desc", "check_rise", "check_fall",
            "check_health", "tracked", "agent_status", "agent_rise", "agent_fall", "agent_health", "addr");

    @Test
    void serverRowsFollowTheStateAndTheChecks() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int closed = FulcrumProcess.refusedPort();
        int fe = freePort();
        try (Origin up = Origin.start(s -> { });
             FulcrumProcess p = serve(config(cli, """
                     server s1 127.0.0.1:%d check inter 10s rise 2 fall 3
                     server s2 127.0.0.1:%d check inter 200 downinter 20s rise 1 fall 1
                     server s3 127.0.0.1:%d disabled
                     server s4 127.0.0.1:%d track be/s1
                     server s5 127.0.0.1:%d weight 5
                     """.formatted(up.port(), closed, up.port(), up.port(), up.port()), fe), fe)) {
            String u = "127.0.0.1:" + up.port();
            String c = "127.0.0.1:" + closed;
            awaitStat(cli, "s1", "status", "UP");
            awaitStat(cli, "s2", "check_status", "L4CON");
            Map<String, Map<String, String>> rows = stat(cli);
            expect(rows, "s1", "UP|1|1|1|0|0|0|#|0|L4OK||#||Layer4 check passed|2|3|4||||||" + u);
            expect(rows, "s2", "DOWN|1|1|1|0|1|1|#|#|L4CON||#|Connection refused|Layer4 connection problem|1|1|0||||||" + c);
            expect(rows, "s3", "MAINT|1|1|1|0|||#|||||||||||||||" + u);
            expect(rows, "s4", "UP|1|1|1|0|||#||||||||||be/s1|||||" + u);
            expect(rows, "s5", "no check|5|5|1|0|||#|||||||||||||||" + u);
            expect(rows, "BACKEND", "UP|7|7|3|0||0|#|0||||||||||||||");

            assertThat(CliClient.send(cli, "set server be/s1 state drain; set server be/s5 health stopping")).isEqualTo("\n\n");
            rows = stat(cli);
            expect(rows, "s1", "DRAIN|1|1|1|0|0|0|#|0|L4OK||#||Layer4 check passed|2|3|4||||||" + u);
            expect(rows, "s4", "DRAIN|1|1|1|0|||#||||||||||be/s1|||||" + u);
            expect(rows, "s5", "NOLB|5|5|1|0|||#|||||||||||||||" + u);
            expect(rows, "BACKEND", "DOWN|0|0|0|0||1|0|0||||||||||||||");

            assertThat(CliClient.send(cli, "disable server be/s1; set weight be/s5 3")).isEqualTo("\n\n");
            rows = stat(cli);
            expect(rows, "s1", "MAINT|1|1|1|0|0|1|0|0||||||||||||||" + u);
            expect(rows, "s4", "MAINT (via be/s1)|1|1|1|0|||0||||||||||be/s1|||||" + u);
            expect(rows, "s5", "NOLB|3|3|1|0|||#|||||||||||||||" + u);

            assertThat(CliClient.send(cli, "set server be/s1 state ready; set server be/s2 health up")).isEqualTo("\n\n");
            rows = stat(cli);
            expect(rows, "s1", "UP 1/3|1|1|1|0|0|1|0|0|L4OK||#||Layer4 check passed|2|3|2||||||" + u);
            expect(rows, "s2", "UP|1|1|1|0|1|1|0|#|L4CON||#|Connection refused|Layer4 connection problem|1|1|1||||||" + c);
            expect(rows, "s4", "UP 1/3|1|1|1|0|||0||||||||||be/s1|||||" + u);
            expect(rows, "BACKEND", "UP|3|3|3|0||1|0|0||||||||||||||");
        }
    }

    /**
     * During a slow start the server's row shows its effective weight (rounded up) and its throttle, and the
     * backend's weight adds the effective weights, as HAProxy 2.6's: with slowstart 10s and weight 10, the
     * effective weight is 10/16 at first, then 20/16 a second later (throttle 6 %, then 12 %); srv_weight follows it.
     */
    @Test
    void slowStartShowsTheRampingWeightAndThrottle() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        try (Origin up = Origin.start(s -> { });
             FulcrumProcess p = serve(config(cli, """
                     balance roundrobin
                     server s1 127.0.0.1:%d weight 10 slowstart 10s
                     server s2 127.0.0.1:%d weight 10
                     """.formatted(up.port(), up.port()), fe), fe)) {
            Map<String, Map<String, String>> rows = stat(cli);
            assertThat(rows.get("s1")).containsEntry("weight", "10").containsEntry("throttle", "");
            assertThat(rows.get("BACKEND")).containsEntry("weight", "20");
            assertThat(CliClient.send(cli, "disable server be/s1")).isEqualTo("\n");
            assertThat(CliClient.send(cli, "enable server be/s1")).isEqualTo("\n");
            rows = stat(cli);
            assertThat(rows.get("s1")).containsEntry("weight", "1").containsEntry("uweight", "10").containsEntry("throttle", "6");
            assertThat(rows.get("s2")).containsEntry("weight", "10").containsEntry("throttle", "");
            assertThat(rows.get("BACKEND")).containsEntry("weight", "11").containsEntry("throttle", "");
            String weights = "experimental-mode on;set var proc.w expr srv_weight(be/s1);set var proc.u expr srv_uweight(be/s1);get var proc.w;"
                    + "get var proc.u";
            assertThat(CliClient.send(cli, weights)).isEqualTo("\n\n\nproc.w: type=sint value=<1>\nproc.u: type=sint value=<10>\n");
            awaitStat(cli, "s1", "throttle", "12");
            rows = stat(cli);
            assertThat(rows.get("s1")).containsEntry("weight", "2");
            assertThat(rows.get("BACKEND")).containsEntry("weight", "12");
            assertThat(CliClient.send(cli, weights)).isEqualTo("\n\n\nproc.w: type=sint value=<2>\nproc.u: type=sint value=<10>\n");
        }
    }

    /** A TCP frontend on {@code fe} to backend "be" made of {@code backend}'s lines, and an admin socket on {@code cli}. */
    private static String config(Path cli, String backend, int fe) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                backend be
                %sfrontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, backend.indent(4), fe);
    }

    private static void expect(Map<String, Map<String, String>> rows, String sv, String expected) {
        String[] want = expected.split("\\|", -1);
        assertThat(want).as("expected fields for " + sv).hasSize(FIELDS.size());
        Map<String, String> row = rows.get(sv);
        for (int i = 0; i < want.length; i++) {
            String got = row.get(FIELDS.get(i));
            if (want[i].equals("#")) {
                assertThat(got).as(sv + " " + FIELDS.get(i)).matches("\\d+");
            } else {
                assertThat(got).as(sv + " " + FIELDS.get(i)).isEqualTo(want[i]);
            }
        }
    }

    private static void awaitStat(Path cli, String sv, String field, String value) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!value.equals(stat(cli).get(sv).get(field))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(sv + " " + field + " never became " + value + ": " + stat(cli).get(sv));
            }
            Thread.sleep(50);
        }
    }

    /** The rows of {@code show stat} of backend "be" by server name ("BACKEND" for its own), each by field name. */
    private static Map<String, Map<String, String>> stat(Path cli) throws Exception {
        Map<String, Map<String, String>> rows = new HashMap<>();
        StatsIT.rows(CliClient.send(cli, "show stat")).forEach((k, v) -> {
            if (k.startsWith("be/")) {
                rows.put(k.substring(3), v);
            }
        });
        return rows;
    }
}
