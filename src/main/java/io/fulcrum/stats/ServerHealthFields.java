package io.fulcrum.stats;

import io.fulcrum.check.CheckView;
import io.fulcrum.check.HealthChecks;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;
import io.fulcrum.server.ServerState.Op;

import static io.fulcrum.stats.StatField.*;

/**
 * The fields of a server's {@code show stat} row that tell its state and its checks, as HAProxy 2.6's
 * stats_fill_sv_stats() words and hides them: check fields only while the check is enabled (and, for its
 * results, not paused by maintenance), agent fields while the agent is enabled.
 */
final class ServerHealthFields {
    private ServerHealthFields() {
    }

    static void fill(StatRow r, Server s, HealthChecks checks) {
        ServerState st = s.state();
        CheckView health = checks.of(s).health();
        CheckView agent = checks.of(s).agent();
        r.put(STATUS, status(s, checks));
        r.put(WEIGHT, st.weight()).put(UWEIGHT, st.weight());
        r.put(LASTCHG, st.lastChangeSeconds());
        if (health.enabled()) {
            r.put(CHKFAIL, st.checkFailures()).put(CHKDOWN, st.checkDowns()).put(DOWNTIME, st.downtimeSeconds());
        }
        if (health.reported()) {
            r.put(CHECK_STATUS, health.statusText());
            if (health.status().hasCode()) {
                r.put(CHECK_CODE, health.code());
            }
            if (health.finished()) {
                r.put(CHECK_DURATION, health.durationMillis());
            }
            r.put(LAST_CHK, health.info()).put(CHECK_DESC, health.status().description());
            r.put(CHECK_RISE, health.rise()).put(CHECK_FALL, health.fall()).put(CHECK_HEALTH, health.health());
        }
        if (agent.enabled()) {
            r.put(AGENT_STATUS, agent.statusText());
            if (agent.status().hasCode()) {
                r.put(AGENT_CODE, agent.code());
            }
            if (agent.finished()) {
                r.put(AGENT_DURATION, agent.durationMillis());
            }
            r.put(LAST_AGT, agent.info()).put(AGENT_DESC, agent.status().description());
            r.put(AGENT_RISE, agent.rise()).put(AGENT_FALL, agent.fall()).put(AGENT_HEALTH, agent.health());
        }
        if (st.tracked() != null) {
            r.put(TRACKED, st.tracked().id());
        }
    }

    /**
     * "UP", "UP 2/3", "DOWN 1/2", "NOLB", "DRAIN", "MAINT", "MAINT (via b/s)", "no check"...: the server's own
     * state, told with the health of the server at the end of its tracking chain.
     */
    static String status(Server s, HealthChecks checks) {
        ServerState st = s.state();
        if ((st.admin() & ServerState.IMAINT) != 0) {
            return "MAINT (via " + st.tracked().id() + ")";
        }
        if (st.inMaintenance()) {
            return "MAINT";
        }
        Server ref = s;
        while (ref.state().tracked() != null) {
            ref = ref.state().tracked();
        }
        CheckView check = checks.of(ref).health();
        CheckView agent = checks.of(ref).agent();
        int max = check.rise() + check.fall() - 1;
        boolean refRunning = ref.state().op() != Op.STOPPED;
        String counts = " " + (refRunning ? check.health() - check.rise() + 1 : check.health()) + "/" + (refRunning ? check.fall() : check.rise());
        return switch (st.op()) {
            case RUNNING, STARTING -> {
                boolean goingDown = check.enabled() && check.health() < max;
                if (st.draining()) {
                    yield agent.enabled() ? "DRAIN (agent)" : goingDown ? "DRAIN" + counts : "DRAIN";
                }
                yield goingDown ? "UP" + counts : check.enabled() ? "UP" : "no check";
            }
            case STOPPING -> (!checks.of(s).health().enabled() && st.tracked() == null) || check.health() == max ? "NOLB" : "NOLB" + counts;
            case STOPPED -> {
                if (agent.enabled() && agent.health() == 0) {
                    yield "DOWN (agent)";
                }
                yield check.enabled() && check.health() == 0 || !agent.enabled() && !check.enabled() ? "DOWN" : "DOWN" + counts;
            }
        };
    }
}
