package io.fulcrum.stick;

import io.fulcrum.backend.Affinity;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The stick tables of the configuration by name (a registry component: the actions, fetches and CLI commands that
 * name a table find it here), and the sweep that removes expired entries, off the event loops, started with the
 * first table that expires entries.
 */
public final class StickTables {
    /** How often expired entries are swept; lookups ignore an expired entry before that. */
    private static final long SWEEP_MS = 1000;

    private final Map<String, StickTable> tables = new LinkedHashMap<>();
    private final Map<String, Source> declared = new LinkedHashMap<>();
    private final List<TableRef> refs = new ArrayList<>();
    private ScheduledExecutorService sweeper;

    public static StickTables of(Registry registry) {
        return registry.component(StickTables.class, StickTables::new);
    }

    /** The table named {@code name}, or null. */
    public StickTable get(String name) {
        return tables.get(name);
    }

    /**
     * A {@code table <name> ...} line of peers section {@code section}: the table "section/name", shared with that
     * section's peers.
     */
    public void declare(String section, ConfigLine l) throws ConfigException {
        add(TableParser.parse(section + "/" + l.arg(1), l, 2, section), l.source());
    }

    /** Every table, in the order of the configuration. */
    public List<StickTable> all() {
        return List.copyOf(tables.values());
    }

    /** A reference to a table, resolved by {@link #resolve} once the configuration is read. */
    TableRef ref(String name, Source usedAt, String what, String proxy) {
        TableRef r = new TableRef(name, usedAt, what, proxy);
        refs.add(r);
        return r;
    }

    /**
     * Resolves every reference; those of rules naming no table are reported (those of expressions are with the other
     * argument resolution errors, ArgResolution). The tables of stick rules store the servers (server_id and
     * server_key) whatever their {@code store} says, as HAProxy's do.
     */
    void resolve(ConfigModel model, Diagnostics diag) {
        List<ProxySpec> proxies = ProxyTable.of(model).proxies();
        for (TableRef r : refs) {
            String error = r.resolve(this, proxies);
            if (error != null && r.usedAt() == null) {
                diag.configAlert(error);
            }
        }
        for (ProxySpec p : proxies) {
            List<StickRules.Rule> rules = p.partOrNull(Affinity.class) instanceof StickRules s ? s.rules : List.of();
            for (StickRules.Rule r : rules) {
                StickTable t = r.table().get();
                if (t != null) {
                    t.storeServers();
                }
            }
        }
    }

    /** Where the table named {@code name} was declared, or null. */
    Source declared(String name) {
        return declared.get(name);
    }

    synchronized void add(StickTable t, Source where) {
        tables.put(t.name(), t);
        declared.put(t.name(), where);
        if (t.expire() > 0 && sweeper == null) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "fulcrum-stick-sweep");
                th.setDaemon(true);
                return th;
            });
            sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void sweep() {
        tables.values().forEach(StickTable::sweep);
    }

    /** The tables, in the order {@code show table} lists them: the last declared first, as HAProxy. */
    List<StickTable> listed() {
        List<StickTable> l = new ArrayList<>(tables.values());
        java.util.Collections.reverse(l);
        return l;
    }
}
