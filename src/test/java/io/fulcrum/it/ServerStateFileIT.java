package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server-state-file} with {@code load-server-state-from-file}: the states a previous process saved with
 * {@code show servers state} come back at start, by HAProxy's rules. Passes against haproxy
 * ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerStateFileIT {
    private static final String HEADER = "# be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state srv_uweight "
            + "srv_iweight srv_time_since_last_change srv_check_status srv_check_result srv_check_health srv_check_state "
            + "srv_agent_state bk_f_forced_id srv_f_forced_id srv_fqdn srv_port srvrecord srv_use_ssl srv_check_port "
            + "srv_check_addr srv_agent_addr srv_agent_port";

    @Test
    void savedStatesComeBackUnlessTheConfigurationChanged() throws Exception {
        Path dir = Files.createTempDirectory("fulcrum-state");
        Path sock = dir.resolve("s.sock");
        int fe = freePort();
        int port = freePort();
        Files.writeString(dir.resolve("state"), String.join("\n", "1", HEADER,
                line("ip", "127.0.0.9", 2, 0, 5, 10, port),         // an IP server keeps its address; weight 5 kept
                line("moved", "127.0.0.1", 2, 0, 7, 10, port + 1),  // the saved port wins
                line("named", "127.0.0.8", 2, 0, 10, 10, port),     // a name's saved address wins (init-addr last)
                line("maint", "127.0.0.1", 0, 1, 10, 10, port),     // down and in forced maintenance
                line("reweighted", "127.0.0.1", 2, 0, 3, 10, port), // the configured weight changed: it wins
                line("drained", "127.0.0.1", 2, 8, 10, 10, port),   // forced drain
                line("gone", "127.0.0.1", 2, 0, 10, 10, port)) + "\n"); // no such server now: ignored
        Path cfg = FulcrumProcess.config("""
                global
                    stats socket %1$s level admin
                    server-state-base %2$s
                    server-state-file state
                defaults
                    mode http
                    timeout client 10s
                    timeout server 10s
                    timeout connect 5s
                    load-server-state-from-file global
                frontend fe
                    bind 127.0.0.1:%3$d
                    default_backend be
                backend be
                    server ip 127.0.0.1:%4$d weight 10
                    server moved 127.0.0.1:%4$d weight 10
                    server named localhost:%4$d weight 10
                    server maint 127.0.0.1:%4$d weight 10
                    server reweighted 127.0.0.1:%4$d weight 20
                    server drained 127.0.0.1:%4$d weight 10
                """.formatted(sock, dir, fe, port));
        try (FulcrumProcess p = FulcrumProcess.serve(cfg, fe)) {
            List<String> lines = CliClient.send(sock, "show servers state be").lines().skip(2).filter(l -> !l.isEmpty()).toList();
            assertThat(lines.stream().map(ServerStateFileIT::kept)).containsExactly(
                    "ip 127.0.0.1 2 0 5 10 " + port,
                    "moved 127.0.0.1 2 0 7 10 " + (port + 1),
                    "named 127.0.0.8 2 0 10 10 " + port,
                    "maint 127.0.0.1 0 1 10 10 " + port,
                    "reweighted 127.0.0.1 2 0 20 20 " + port,
                    "drained 127.0.0.1 2 8 10 10 " + port);
            p.awaitStderr("Server be/maint is DOWN, changed from server-state after a reload. 5 active and 0 backup servers left.");
            p.awaitStderr("Server be/drained remains in forced drain mode.");
        }
    }

    /** A saved line: no check, no agent, 100 s since the last change. */
    private static String line(String name, String addr, int op, int admin, int uweight, int iweight, int port) {
        return "3 be 1 " + name + " " + addr + " " + op + " " + admin + " " + uweight + " " + iweight
                + " 100 1 0 0 0 0 0 0 - " + port + " - 0 0 - - 0";
    }

    /** The fields a reload carries over: name, address, op and admin states, weights, port. */
    private static String kept(String line) {
        String[] f = line.split(" ");
        return String.join(" ", Arrays.asList(f[3], f[4], f[5], f[6], f[7], f[8], f[18]));
    }
}
