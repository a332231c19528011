package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server and check commands of the runtime CLI over a real stats socket: their answers, errors and
 * severities word for word, the state changes they make and log, and {@code show servers state}. Every
 * expectation was taken from HAProxy 2.6 and still holds for it (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerCommandsIT {
    private Origin up;
    private Path admin;
    private Path user;
    private FulcrumProcess proxy;

    @BeforeEach
    void start() throws Exception {
        up = Origin.start(s -> { });
        admin = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        user = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int closed = FulcrumProcess.refusedPort();
        int fe = freePort();
        proxy = serve("""
                global
                    stats socket %s level admin
                    stats socket %s level user
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                backend be
                    server s1 127.0.0.1:%d check inter 10s rise 2 fall 3
                    server s2 127.0.0.1:%d disabled
                    server s3 127.0.0.1:%d weight 5
                    server s4 127.0.0.1:%d track be/s1
                    server s5 127.0.0.1:%d check inter 200 rise 1 fall 1 agent-check agent-port %d agent-inter 200
                backend st
                    balance static-rr
                    server t1 127.0.0.1:%d
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(admin, user, up.port(), up.port(), up.port(), up.port(), closed, closed, up.port(), fe), fe);
        // Settled: s1 checked once (UP), s5 found DOWN; then s5's checks stop so that nothing moves any more.
        await("show servers state be", out -> out.matches("(?s).* s1 127\\.0\\.0\\.1 2 0 1 1 \\d+ 6 3 4 6 .*")
                && out.matches("(?s).* s5 127\\.0\\.0\\.1 0 0 1 1 \\d+ 8 2 0 6 .*"));
        assertThat(CliClient.send(admin, "disable health be/s5; disable agent be/s5")).isEqualTo("\n\n");
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        up.close();
    }

    private void await(String command, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String out;
        while (!done.test(out = CliClient.send(admin, command))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("'" + command + "' still answers:\n" + out + "\nstderr:\n" + proxy.stderr());
            }
            Thread.sleep(50);
        }
    }

    private void expect(String command, String answer) throws Exception {
        assertThat(CliClient.send(admin, command)).as(command).isEqualTo(answer);
    }

    @Test
    void weightsAreSetAndReadAsHaproxyDoes() throws Exception {
        expect("get weight be/s3", "5 (initial 5)\n\n");
        expect("set weight be/s3 50%", "\n");
        expect("get weight be/s3", "2 (initial 5)\n\n");
        expect("set server be/s3 weight 300%", "\n");
        expect("get weight be/s3", "15 (initial 5)\n\n");
        expect("set server be/s3 weight 10 extra", "\n");
        expect("get weight be/#3", "10 (initial 5)\n\n");
        expect("set weight be/s3 +7", "\n");
        expect("get weight #2/s3", "7 (initial 5)\n\n");
        expect("set weight be/s3 300", "Absolute weight can only be between 0 and 256 inclusive.\n\n");
        expect("set weight be/s3 -1", "Absolute weight can only be between 0 and 256 inclusive.\n\n");
        expect("set weight be/s3 5x", "Trailing garbage in weight string\n");
        expect("set weight be/s3 3%x", "Trailing garbage in weight string\n");
        expect("set weight be/s3 %", "Empty weight string empty or preceded by garbage\n");
        expect("set weight be/s3 abc", "Empty weight string empty or preceded by garbage\n");
        expect("set weight be/s3 -5%", "Relative weight must be positive.\n\n");
        expect("set weight be/s3", "Require <weight> or <weight%>.\n\n");
        expect("set server be/s3 weight", "Require <weight> or <weight%>.\n\n");
        expect("set weight st/t1 2", "Backend is using a static LB algorithm and only accepts weights '0%' and '100%'.\n\n");
        expect("set weight st/t1 0%", "\n");
        expect("get weight st/t1", "0 (initial 1)\n\n");
        expect("set weight st/t1 100%", "\n");
        expect("get weight st/t1", "1 (initial 1)\n\n");
    }

    @Test
    void serversAreNamedAsHaproxyNamesThem() throws Exception {
        expect("get weight", "Require 'backend/server'.\n\n");
        expect("get weight be", "Require 'backend/server'.\n\n");
        expect("get weight be/", "Require 'backend/server'.\n\n");
        expect("get weight foo/s1", "No such backend.\n\n");
        expect("get weight be/zz", "No such server.\n\n");
        expect("get weight be/3", "No such server.\n\n");
        expect("disable server", "Require 'backend/server'.\n\n");
        expect("set server", "Require 'backend/server'.\n\n");
        expect("set server be/zz", "No such server.\n\n");
        expect("set server foo/s1 state ready", "No such backend.\n\n");
        String usage = "usage: set server <backend>/<server> addr | agent | agent-addr | agent-port | agent-send | check-addr | check-port"
                + " | fqdn | health | ssl | state | weight\n\n";
        expect("set server be/s1", usage);
        expect("set server be/s1 foo", usage);
    }

    @Test
    void levelsAreChecked() throws Exception {
        for (String cmd : new String[] {"disable server be/s3", "enable server be/s3", "set server be/s3 state drain", "set weight be/s3 2",
                "disable health be/s1", "enable agent be/s5"}) {
            assertThat(CliClient.send(user, cmd)).as(cmd).isEqualTo("Permission denied\n\n");
        }
        assertThat(CliClient.send(user, "get weight be/s3")).isEqualTo("5 (initial 5)\n\n");
        assertThat(CliClient.send(user, "show backend")).isEqualTo("# name\nbe\nst\n\n");
    }

    @Test
    void checkCommandsAnswerAsHaproxyDoes() throws Exception {
        expect("enable health be/s3", "Health check was not configured on this server, cannot enable.\n\n");
        expect("enable agent be/s3", "Agent was not configured on this server, cannot enable.\n\n");
        expect("disable agent be/s3", "\n");
        expect("disable health be/s4", "\n");
        expect("set server be/s3 agent up", "agent checks are not enabled on this server.\n\n");
        expect("set server be/s5 agent up", "agent checks are not enabled on this server.\n\n"); // disabled above
        expect("set server be/s4 health up", "cannot change health on a tracking server.\n\n");
        expect("set server be/s1 health foo", "'set server <srv> health' expects 'up', 'stopping', or 'down'.\n\n");
        expect("set server be/s1 state foo", "'set server <srv> state' expects 'ready', 'drain' and 'maint'.\n\n");
        expect("enable agent be/s5; set server be/s5 agent foo", "\n'set server <srv> agent' expects 'up' or 'down'.\n\n");
        expect("set server be/s1 check-port", "set server <b>/<s> check-port requires a port.\n\n");
        expect("set server be/s3 check-port 80", "health checks are not enabled on this server\n");
        expect("set server be/s1 check-port abc", "provided port is not an integer\n");
        expect("set server be/s1 check-port 99999", "provided port is invalid\n");
        expect("set server be/s1 check-port -1", "provided port is invalid\n");
        expect("set server be/s1 check-port 4", "\n");
        assertThat(CliClient.send(admin, "show servers state be")).contains(" s1 127.0.0.1 2 0 1 1 ").contains(" - " + up.port() + " - 0 4 - - 0\n");
        expect("set severity-output string; set server be/s1 check-port x; set weight be/s3 x; enable agent be/s3",
                "\n[warning]: provided port is not an integer\n[err]: Empty weight string empty or preceded by garbage\n"
                        + "[err]: Agent was not configured on this server, cannot enable.\n\n");
    }

    @Test
    void stateChangesAreMadeLoggedAndDumped() throws Exception {
        String header = "1\n# be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state srv_uweight srv_iweight"
                + " srv_time_since_last_change srv_check_status srv_check_result srv_check_health srv_check_state srv_agent_state"
                + " bk_f_forced_id srv_f_forced_id srv_fqdn srv_port srvrecord srv_use_ssl srv_check_port srv_check_addr srv_agent_addr"
                + " srv_agent_port\n";
        int p = up.port();
        assertThat(dump("be")).isEqualTo(header
                + "2 be 1 s1 127.0.0.1 2 0 1 1 * 6 3 4 6 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 2 s2 127.0.0.1 0 5 1 1 * 1 0 0 8 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 3 s3 127.0.0.1 2 0 5 5 * 1 0 2 0 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 4 s4 127.0.0.1 2 0 1 1 * 1 0 2 0 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 5 s5 127.0.0.1 0 0 1 1 * 8 2 0 2 18 0 0 - " + portOf("s5") + " - 0 0 - - " + portOf("s5") + "\n\n");
        expect("show servers state foo", "Can't find backend.\n\n");

        expect("enable server be/s2", "\n");
        expect("disable server be/s1", "\n");
        expect("set server be/s3 state drain", "\n");
        expect("set server be/s5 health up", "\n");
        expect("set server be/s5 check-port 7", "health checks are not enabled on this server\n"); // disabled above
        assertThat(dump("be")).isEqualTo(header
                + "2 be 1 s1 127.0.0.1 0 1 1 1 * 6 3 0 14 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 2 s2 127.0.0.1 2 4 1 1 * 1 0 0 8 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 3 s3 127.0.0.1 2 8 5 5 * 1 0 2 0 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 4 s4 127.0.0.1 0 2 1 1 * 1 0 0 0 0 0 0 - " + p + " - 0 0 - - 0\n"
                + "2 be 5 s5 127.0.0.1 2 0 1 1 * 8 2 1 2 18 0 0 - " + portOf("s5") + " - 0 0 - - " + portOf("s5") + "\n\n");
        String err = proxy.stderr();
        assertThat(err).contains("Server be/s2 is UP/READY (leaving forced maintenance).\n");
        assertThat(err).contains("Server be/s1 is going DOWN for maintenance. 3 active and 0 backup servers left. 0 sessions active,"
                + " 0 requeued, 0 remaining in queue.\n");
        assertThat(err).contains("Server be/s4 is going DOWN for maintenance via be/s1. 2 active and 0 backup servers left.");
        assertThat(err).contains("Server be/s3 enters drain state. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.\n");
        assertThat(err).contains("Server be/s5 is UP, changed from CLI. 2 active and 0 backup servers online.");

        expect("set server be/s1 state ready; set server be/s3 state maint; set server be/s5 health stopping", "\n\n\n");
        assertThat(dump("be").lines().filter(l -> l.startsWith("2 be ")).toList()).containsExactly(
                "2 be 1 s1 127.0.0.1 2 0 1 1 * 6 3 2 6 0 0 0 - " + p + " - 0 0 - - 0",
                "2 be 2 s2 127.0.0.1 2 4 1 1 * 1 0 0 8 0 0 0 - " + p + " - 0 0 - - 0",
                "2 be 3 s3 127.0.0.1 0 1 5 5 * 1 0 0 0 0 0 0 - " + p + " - 0 0 - - 0",
                "2 be 4 s4 127.0.0.1 2 0 1 1 * 1 0 0 0 0 0 0 - " + p + " - 0 0 - - 0",
                "2 be 5 s5 127.0.0.1 3 0 1 1 * 8 2 1 2 18 0 0 - " + portOf("s5") + " - 0 0 - - " + portOf("s5"));
        assertThat(proxy.stderr()).contains("Server be/s3 is going DOWN for maintenance. 4 active and 0 backup servers left.")
                .contains("Server be/s5 is stopping, changed from CLI.");
    }

    /** {@code show servers state BACKEND}, the age of the last change replaced by "*". */
    private String dump(String backend) throws Exception {
        return CliClient.send(admin, "show servers state " + backend).replaceAll("(?m)^(\\d+ \\S+ \\d+ \\S+ \\S+ \\d+ \\d+ \\d+ \\d+) \\d+ ", "$1 * ");
    }

    /** The port of a server, read from {@code show servers state}. */
    private String portOf(String server) throws Exception {
        for (String l : CliClient.send(admin, "show servers state be").split("\n")) {
            String[] f = l.split(" ");
            if (f.length > 18 && f[3].equals(server)) {
                return f[18];
            }
        }
        throw new AssertionError("no server " + server);
    }
}
