package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show profiling}, {@code set profiling} and {@code show tasks} over a stats socket, in HAProxy 2.6's layout
 * and with its messages (checked on haproxy): the state, the work measured once profiling is on (a row per kind of
 * work, its calls, CPU time and latency), the line limit, the refusals (memory profiling, which Debian's haproxy is
 * built without, as Fulcrum has none), the admin level both profiling commands need (all three listed at any level),
 * and {@code profiling.tasks} in the configuration.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProfilingIT {
    private static final String STATUS = "Per-task CPU profiling              : %-8s      # set profiling tasks {on|auto|off}\n"
            + "Memory usage profiling              : off           # set profiling memory {on|off}\n";
    private static final String TASKS = "Tasks activity:\n  function                      calls   cpu_tot   cpu_avg   lat_tot   lat_avg\n";
    /** A kind of work: its name, the calls (right after a name of 34 characters or more), and four times. */
    private static final Pattern ROW = Pattern.compile("  (\\S+?) *(\\d+)(?:   [0-9.]+(?:ns|us|ms|s|m|h|d)){4}");

    private static String global(Path admin, int operator, String more) {
        return "global\n    nbthread 2\n    stats socket " + admin + " level admin\n    stats socket ipv4@127.0.0.1:" + operator
                + " level operator\n" + more;
    }

    /** Waits (10 s at most) for the stats socket, which haproxy may bind after the frontend's port. */
    private static Path ready(Path socket) throws InterruptedException {
        for (int i = 0; i < 500 && !Files.exists(socket); i++) {
            Thread.sleep(20);
        }
        return socket;
    }

    @Test
    void tasksAreMeasuredOnceProfilingIsOn() throws Exception {
        Path admin = Files.createTempDirectory("fulcrum-profiling").resolve("admin.sock");
        int operator = freePort();
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(global(admin, operator, "") + HttpKit.config(fe, origin.port()), fe)) {
            assertThat(CliClient.send(ready(admin), "show profiling status")).isEqualTo(STATUS.formatted("auto-off") + "\n");
            assertThat(CliClient.send(admin, "show profiling memory")).isEqualTo("\n");
            assertThat(CliClient.send(admin, "set profiling tasks on")).isEqualTo("\n");
            assertThat(CliClient.send(admin, "show profiling status")).isEqualTo(STATUS.formatted("on") + "\n");
            for (int i = 0; i < 5; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200);
                }
            }
            String all = CliClient.send(admin, "show profiling");
            assertThat(all).startsWith(STATUS.formatted("on") + TASKS).endsWith("\n\n");
            long calls = 0;
            String[] rows = all.substring((STATUS.formatted("on") + TASKS).length(), all.length() - 2).split("\n");
            for (String row : rows) {
                Matcher m = ROW.matcher(row);
                assertThat(m.matches()).as(row).isTrue();
                calls += Long.parseLong(m.group(2));
            }
            assertThat(calls).as(all).isGreaterThanOrEqualTo(5);
            String one = CliClient.send(admin, "show profiling tasks 1");
            assertThat(one).startsWith(TASKS);
            assertThat(one.substring(TASKS.length(), one.length() - 2).split("\n")).hasSize(1);

            assertThat(CliClient.send(admin, "set profiling tasks auto")).isEqualTo("\n");
            assertThat(CliClient.send(admin, "show profiling status")).isEqualTo(STATUS.formatted("auto-on") + "\n");
            assertThat(CliClient.send(admin, "set profiling tasks off")).isEqualTo("\n");
            assertThat(CliClient.send(admin, "show profiling status")).isEqualTo(STATUS.formatted("off") + "\n");

            assertThat(CliClient.send(admin, "set profiling memory on")).isEqualTo("Memory profiling not compiled in.\n\n");
            assertThat(CliClient.send(admin, "set profiling tasks maybe")).isEqualTo("Expects 'on', 'auto', or 'off'.\n\n");
            assertThat(CliClient.send(admin, "set profiling cpu on")).isEqualTo("Expects either 'tasks' or 'memory'.\n\n");
            assertThat(CliClient.send(admin, "show profiling bytime")).isEqualTo(
                    "Expects either 'all', 'status', 'tasks', 'memory', 'byaddr' or a max number of output lines.\n\n");
            InetSocketAddress op = new InetSocketAddress("127.0.0.1", operator);
            assertThat(CliClient.send(op, "set profiling tasks on")).isEqualTo("Permission denied\n\n");
            assertThat(CliClient.send(op, "show profiling status")).isEqualTo("Permission denied\n\n");
            assertThat(CliClient.send(op, "help")).contains("  show profiling [<what>|<#lines>|byaddr]*: show profiling state",
                    "  set profiling <what> {auto|on|off}      : enable/disable", "  show tasks                              : show running tasks");
            assertThat(CliClient.send(op, "show tasks")).startsWith("Running tasks: ");

            assertThat(CliClient.send(admin, "show tasks")).matches(
                    "Running tasks: \\d+ \\(2 threads\\)\n  function                     places     %    lat_tot   lat_avg\n(?s)(?:.*\n)?\n");
        }
    }

    @Test
    void profilingTasksOnInTheConfiguration() throws Exception {
        Path admin = Files.createTempDirectory("fulcrum-profiling").resolve("admin.sock");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(global(admin, freePort(), "    profiling.tasks on\n")
                     + HttpKit.config(fe, origin.port()), fe)) {
            assertThat(CliClient.send(ready(admin), "show profiling status")).isEqualTo(STATUS.formatted("on") + "\n");
        }
    }
}
