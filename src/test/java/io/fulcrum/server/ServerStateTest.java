package io.fulcrum.server;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.server.ServerState.Op;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The transitions of a server's state and the lines HAProxy 2.6 logs for them (wording taken from haproxy 2.6). */
class ServerStateTest {
    private final List<String> lines = new ArrayList<>();
    private final ServerEvents events = new ServerEvents() {
        @Override
        public void notice(String text) {
            lines.add("notice " + text);
        }

        @Override
        public void alert(String text) {
            lines.add("alert " + text);
        }

        @Override
        public void noServerLeft(String backend) {
            lines.add("emerg backend " + backend + " has no server available!");
        }

        @Override
        public void responseAlert(String text) {
            lines.add("alert " + text);
        }
    };

    private ServerGroup group(String name) {
        ServerGroup g = new ServerGroup(name);
        g.events(events);
        return g;
    }

    private static Server server(ServerGroup g, String name, int id, boolean disabled) {
        ServerSpec s = new ServerSpec();
        s.name = name;
        s.disabled = disabled;
        s.endpoint = new Endpoint.Inet(InetAddress.getLoopbackAddress(), 80, Endpoint.Family.ANY);
        return new Server(g, s, id);
    }

    /** The line haproxy 2.6.12 logged for the same backend (an active server with a check, a backup one). */
    @Test
    void backupServersAreCountedApartAndSaidToRunTheBackend() {
        ServerGroup g = group("be");
        Server s1 = server(g, "s1", 1, false);
        Server b1 = server(g, "b1", 2, false);
        b1.spec().backup = true;
        s1.state().setOp(Op.STOPPED, ", reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms");
        s1.state().setOp(Op.RUNNING, ", changed from CLI");
        assertThat(lines).containsExactly(
                "alert Server be/s1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms. "
                        + "0 active and 1 backup servers left. Running on backup. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "notice Server be/s1 is UP, changed from CLI. 1 active and 1 backup servers online. 0 sessions requeued, 0 total in queue.");
    }

    @Test
    void downAndUpAreLoggedWithTheCountsAfterTheChange() {
        ServerGroup g = group("be");
        Server s1 = server(g, "s1", 1, false);
        Server s2 = server(g, "s2", 2, false);
        AtomicInteger told = new AtomicInteger();
        s1.onChange(told::incrementAndGet);
        s1.state().setOp(Op.STOPPED, ", reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms");
        assertThat(s1.usable()).isFalse();
        assertThat(told).hasValue(1);
        s2.state().setOp(Op.STOPPED, "");
        s1.state().setOp(Op.RUNNING, ", changed from CLI");
        s1.state().setOp(Op.STOPPING, ", changed from CLI");
        assertThat(lines).containsExactly(
                "alert Server be/s1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms. "
                        + "1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "alert Server be/s2 is DOWN. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be has no server available!",
                "notice Server be/s1 is UP, changed from CLI. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "notice Server be/s1 is stopping, changed from CLI. 0 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "emerg backend be has no server available!");
        assertThat(s1.state().checkDowns()).isEqualTo(1);
        assertThat(s1.up()).isTrue();
        assertThat(s1.usable()).isFalse();
    }

    @Test
    void maintenanceAndDrain() {
        ServerGroup g = group("be");
        Server s1 = server(g, "s1", 1, false);
        Server s3 = server(g, "s3", 2, false);
        s3.state().setOp(Op.STOPPED, "");
        lines.clear();
        s1.state().setAdmin(ServerState.FMAINT);
        s1.state().clearAdmin(ServerState.FMAINT);
        s1.state().setAdmin(ServerState.FDRAIN);
        assertThat(s1.usable()).isFalse();
        s1.state().clearAdmin(ServerState.FDRAIN);
        s3.state().setAdmin(ServerState.FMAINT);
        s3.state().setAdmin(ServerState.FMAINT);
        s3.state().clearAdmin(ServerState.FMAINT);
        s3.state().setOp(Op.STOPPED, "");
        s3.state().setAdmin(ServerState.FDRAIN);
        assertThat(lines).containsExactly(
                "alert Server be/s1 is going DOWN for maintenance. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be has no server available!",
                "notice Server be/s1 is UP/READY (leaving forced maintenance).",
                "notice Server be/s1 enters drain state. 0 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "emerg backend be has no server available!",
                "notice Server be/s1 is UP (leaving forced drain).",
                "notice Server be/s3 was DOWN and now enters maintenance.",
                "notice Server be/s3 is UP/READY (leaving forced maintenance).",
                "alert Server be/s3 is DOWN. 1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "notice Server be/s3 enters drain state. 1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.");
    }

    @Test
    void configuredMaintenanceEndsWithEnable() {
        ServerGroup g = group("be");
        Server s2 = server(g, "s2", 1, true);
        assertThat(s2.usable()).isFalse();
        assertThat(s2.up()).isFalse();
        s2.state().clearAdmin(ServerState.FMAINT);
        assertThat(s2.usable()).isTrue();
        assertThat(lines).containsExactly("notice Server be/s2 is UP/READY (leaving forced maintenance).");
    }

    @Test
    void trackersFollowFromTheLastDeclaredWithViaInTheirLines() {
        ServerGroup be = group("be");
        ServerGroup be2 = group("be2");
        Server s1 = server(be, "s1", 1, false);
        Server s4 = server(be, "s4", 2, false);
        Server t1 = server(be2, "t1", 1, false);
        s4.state().track(s1);
        t1.state().track(s1);
        s1.state().setOp(Op.STOPPED, ", changed from CLI");
        assertThat(t1.usable()).isFalse();
        s1.state().setOp(Op.RUNNING, ", changed from CLI");
        s1.state().setAdmin(ServerState.FMAINT);
        s1.state().clearAdmin(ServerState.FMAINT);
        assertThat(s4.usable()).isTrue();
        assertThat(lines).containsExactly(
                "alert Server be/s1 is DOWN, changed from CLI. 1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "alert Server be2/t1 is DOWN via be/s1. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be2 has no server available!",
                "alert Server be/s4 is DOWN via be/s1. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be has no server available!",
                "notice Server be/s1 is UP, changed from CLI. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "notice Server be2/t1 is UP via be/s1. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "notice Server be/s4 is UP via be/s1. 2 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                "alert Server be/s1 is going DOWN for maintenance. 1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "alert Server be2/t1 is going DOWN for maintenance via be/s1. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be2 has no server available!",
                "alert Server be/s4 is going DOWN for maintenance via be/s1. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                "emerg backend be has no server available!",
                "notice Server be/s1 is UP/READY (leaving forced maintenance).",
                "notice Server be2/t1 is UP/READY (leaving maintenance).",
                "notice Server be/s4 is UP/READY (leaving maintenance).");
    }

    @Test
    void weightZeroLeavesTheServerUpButUnusable() {
        ServerGroup g = group("be");
        Server s = server(g, "s", 1, false);
        s.state().setWeight(0);
        assertThat(s.usable()).isFalse();
        assertThat(s.up()).isTrue();
        assertThat(s.state().initialWeight()).isEqualTo(1);
        assertThat(lines).containsExactly("emerg backend be has no server available!");
    }
}
