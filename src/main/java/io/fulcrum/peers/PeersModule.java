package io.fulcrum.peers;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.Services;
import io.fulcrum.stick.StickTable;
import io.fulcrum.stick.StickTables;

/**
 * Peers: the {@code peers} sections, the tables they share ({@code stick-table ... peers <name>} and their own
 * {@code table} lines), the peers protocol that replicates them, and {@code show peers}.
 */
public final class PeersModule implements Module {

    @Override
    public void register(Registry registry) {
        PeersConfig config = PeersConfig.of(registry);
        StickTables tables = StickTables.of(registry);
        PeersSection.register(registry, config);
        ShowPeers.register(CliCommands.of(registry), config);
        registry.check((model, diag) -> resolve(model, diag, config, tables));
        registry.table(GlobalModule.KEYWORDS).add("tune.peers.max-updates-at-once", (g, l) -> {
            Args.noMoreThan(l, 1, "tune.peers.max-updates-at-once");
            // HAProxy reads "7x" as 7 (atoi); Fulcrum refuses it.
            if (!l.arg(1).matches("0*[1-9][0-9]{0,8}")) {
                throw new ConfigException("'tune.peers.max-updates-at-once' expects an integer argument greater than 0.");
            }
            config.maxUpdatesAtOnce = Integer.parseInt(l.arg(1));
        });
    }

    /**
     * Gives each section its tables (a table naming no section is an error), drops the sections without the local
     * peer (a warning, as HAProxy), and prepares the others to run.
     */
    private static void resolve(ConfigModel model, Diagnostics diag, PeersConfig config, StickTables tables) {
        for (StickTable t : tables.all()) {
            if (t.peers() == null) {
                continue;
            }
            PeersSpec spec = config.sections.get(t.peers());
            if (spec == null) {
                diag.configAlert("Proxy '" + t.name() + "': unable to find sync peers '" + t.peers() + "'.");
            } else {
                spec.tables.add(t);
            }
        }
        for (PeersSpec spec : config.sections.values()) {
            if (spec.peer(spec.localName) == null) {
                diag.configWarning("Removing incomplete section 'peers " + spec.name + "' (no peer named '" + spec.localName + "').");
            } else if (!spec.disabled) {
                tlsMismatch(spec, diag);
                PeersRuntime r = new PeersRuntime(spec, diag, config.maxUpdatesAtOnce);
                config.running.add(r);
                Services.of(model).add(r);
            }
        }
    }

    /** HAProxy's warning when the local peer listens with TLS and connects to itself (on a reload) without, or back. */
    private static void tlsMismatch(PeersSpec spec, Diagnostics diag) {
        boolean listens = spec.listener != null && spec.listener.transport != null;
        boolean connects = spec.peer(spec.localName).server().transport != null;
        if (spec.listener != null && listens != connects) {
            diag.configWarning("Peers section '" + spec.localName + "': local peer have a " + (listens ? "SSL" : "non-SSL") + " listener and a "
                    + (connects ? "SSL" : "non-SSL") + " server configured at line " + spec.listener.source().file() + ":"
                    + spec.listener.source().line() + ".");
        }
    }
}
