package io.fulcrum.server;

import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code set server <b>/<s> <what> ...}: one CLI command whose sub-commands ({@code state}, {@code health},
 * {@code check-port}...) are added by the subsystem that owns what they change (a registry component).
 */
public final class SetServer {
    /** HAProxy's answer to a missing or unknown sub-command: the sub-commands HAProxy 2.6 knows. */
    static final String USAGE = "usage: set server <backend>/<server> addr | agent | agent-addr | agent-port | agent-send | check-addr"
            + " | check-port | fqdn | health | ssl | state | weight\n";

    /** One sub-command; {@code r.arg(4)} is its first argument. */
    @FunctionalInterface
    public interface Action {
        void run(CliRequest r, ServerLookup.Target target) throws CliException;
    }

    private final Map<String, Action> actions = new HashMap<>();

    public static SetServer of(Registry registry) {
        return registry.component(SetServer.class, SetServer::new);
    }

    public void add(String what, Action action) {
        if (actions.putIfAbsent(what, action) != null) {
            throw new IllegalStateException("'set server " + what + "' registered twice");
        }
    }

    /** Runs {@code set server}: the server is looked up first, as HAProxy does, then the sub-command. */
    void run(CliRequest r) throws CliException {
        ServerLookup.Target t = ServerLookup.server(r.process(), r.arg(2));
        Action a = actions.get(r.arg(3));
        if (a != null) {
            a.run(r, t);
        } else if (USAGE.contains(" " + r.arg(3) + " ")) {
            throw new CliException("'set server <b>/<s> " + r.arg(3) + "' is not supported by Fulcrum yet.\n");
        } else {
            throw new CliException(USAGE);
        }
    }
}
