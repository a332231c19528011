package io.fulcrum.check;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerLookup;
import io.fulcrum.server.ServerState.Op;
import io.fulcrum.server.SetServer;

/**
 * The CLI commands on health and agent checks (management.txt 9.3): enable/disable health|agent, the
 * {@code health} and {@code agent} sub-commands of {@code set server} (where the checks go: {@link CheckTargetCommands}),
 * and {@code show servers state}. Answers and their
 * severities are HAProxy 2.6's.
 */
final class CheckCommands {
    private CheckCommands() {
    }

    static void register(CliCommands c, SetServer set) {
        c.add("disable health", "disable health", "disable health checks", CliLevel.ADMIN, r -> checks(r).healthEnabled(false));
        c.add("enable health", "enable health", "enable health checks", CliLevel.ADMIN, r -> {
            ServerChecks k = checks(r);
            if (!k.hasHealthCheck()) {
                throw new CliException("Health check was not configured on this server, cannot enable.\n");
            }
            k.healthEnabled(true);
        });
        c.add("disable agent", "disable agent", "disable agent checks", CliLevel.ADMIN, r -> checks(r).agentEnabled(false));
        c.add("enable agent", "enable agent", "enable agent checks", CliLevel.ADMIN, r -> {
            ServerChecks k = checks(r);
            if (!k.hasAgent()) {
                throw new CliException("Agent was not configured on this server, cannot enable.\n");
            }
            k.agentEnabled(true);
        });
        set.add("health", (r, t) -> {
            if (t.server().state().tracked() != null) {
                throw new CliException("cannot change health on a tracking server.\n");
            }
            Op op = switch (r.arg(4)) {
                case "up" -> Op.RUNNING;
                case "stopping" -> Op.STOPPING;
                case "down" -> Op.STOPPED;
                default -> throw new CliException("'set server <srv> health' expects 'up', 'stopping', or 'down'.\n");
            };
            checks(r, t.server()).forceHealth(op);
        });
        set.add("agent", (r, t) -> {
            ServerChecks k = checks(r, t.server());
            if (!k.agentEnabled()) {
                throw new CliException("agent checks are not enabled on this server.\n");
            }
            switch (r.arg(4)) {
                case "up" -> k.forceAgent(true);
                case "down" -> k.forceAgent(false);
                default -> throw new CliException("'set server <srv> agent' expects 'up' or 'down'.\n");
            }
        });
        CheckTargetCommands.register(set);
        c.add("show servers state", "show servers state [<backend>]", "dump volatile server information (all or for a single backend)",
                CliLevel.USER, ServerStateDump::run);
    }

    /** The checks of the server the command's third word names. */
    private static ServerChecks checks(CliRequest r) throws CliException {
        return checks(r, ServerLookup.server(r.process(), r.arg(2)).server());
    }

    private static ServerChecks checks(CliRequest r, Server s) {
        return r.process().checks().of(s);
    }
}
