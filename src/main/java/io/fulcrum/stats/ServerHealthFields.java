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

    /** The fields that report one check: the health check's, or the agent's. */
    private record CheckFields(StatField status, StatField code, StatField duration, StatField last, StatField desc, StatField rise,
                               StatField fall, StatField health) {
        static final CheckFields HEALTH = new CheckFields(CHECK_STATUS, CHECK_CODE, CHECK_DURATION, LAST_CHK, CHECK_DESC, CHECK_RISE,
                CHECK_FALL, CHECK_HEALTH);
        static final CheckFields AGENT = new CheckFields(AGENT_STATUS, AGENT_CODE, AGENT_DURATION, LAST_AGT, AGENT_DESC, AGENT_RISE,
                AGENT_FALL, AGENT_HEALTH);

        void fill(StatRow r, CheckView v) {
            r.put(status, v.statusText());
            if (v.status().hasCode()) {
                r.put(code, v.code());
            }
            if (v.finished() && v.durationMillis() >= 0) {
                r.put(duration, v.durationMillis());
            }
            r.put(last, v.info()).put(desc, v.status().description());
            r.put(rise, v.rise()).put(fall, v.fall()).put(health, v.health());
        }
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
            CheckFields.HEALTH.fill(r, health);
        }
        if (agent.enabled()) {
            CheckFields.AGENT.fill(r, agent);
        }
        if (st.tracked() != null) {
            r.put(TRACKED, st.tracked().id());
        }
        if (checks.of(trackEnd(s)).observes()) { // HAProxy asks the server at the end of the tracking chain, and shows this one's count
            r.put(HANAFAIL, checks.of(s).analysisFailures());
        }
    }

    /**
     * "UP", "UP 2/3", "DOWN 1/2", "NOLB", "DRAIN", "MAINT", "MAINT (via b/s)", "MAINT (resolution)", "no check"...:
     * the server's own state, told with the health of the server at the end of its tracking chain.
     */
    static String status(Server s, HealthChecks checks) {
        ServerState st = s.state();
        if ((st.admin() & ServerState.RMAINT) != 0) {
            return "MAINT (resolution)";
        }
        if ((st.admin() & ServerState.IMAINT) != 0) {
            return "MAINT (via " + st.tracked().id() + ")";
        }
        if (st.inMaintenance()) {
            return "MAINT";
        }
        Server ref = trackEnd(s);
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

    /** The server at the end of {@code s}'s tracking chain ({@code s} itself when it tracks none). */
    private static Server trackEnd(Server s) {
        Server ref = s;
        while (ref.state().tracked() != null) {
            ref = ref.state().tracked();
        }
        return ref;
    }
}
