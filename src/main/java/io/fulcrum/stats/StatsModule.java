package io.fulcrum.stats;

import io.fulcrum.acl.AclParser;
import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.rules.Services;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.server.Server;

import java.util.List;
import java.util.Map;

/** The statistics: {@code show info}, {@code show stat}, {@code show schema json}, {@code clear counters}, the stats page, the Prometheus exporter. */
public final class StatsModule implements Module {

    @Override
    public void register(Registry registry) {
        CliCommands c = CliCommands.of(registry);
        c.add("show info", "show info [desc|json|typed|float]*", "report information about the running process",
                CliLevel.USER, StatsModule::showInfo);
        c.add("show stat", "show stat [desc|json|no-maint|typed|up]*", "report counters for each proxy and server",
                CliLevel.USER, StatsModule::showStat);
        // The structure of show info json and show stat json, which are HAProxy's
        String schema = Resources.text("schema.json");
        c.add("show schema json", "show schema json", "report schema used for stats", CliLevel.USER, r -> r.print(schema));
        Services.of(registry).add("prometheus-exporter", "<PROMEX>", PrometheusExporter::serve);
        AclParser acls = AclParser.of(registry);
        registry.table(ProxyModule.KEYWORDS).add("stats", Capability.ALL, (p, l) -> StatsPageSpec.parse(p, l, acls));
        registry.check(StatsModule::checkStatsPages);
        registry.table(GlobalModule.KEYWORDS).add("node", (g, l) -> {
            if (!StatsPageSpec.isNodeName(l.arg(1))) {
                throw ConfigException.unspaced("'node' requires valid node name - non-empty string with digits(0-9), letters(A-Z, a-z), "
                        + "dot(.), hyphen(-) or underscode(_).");
            }
            Args.noMoreThan(l, 1, "node");
            g.settings().node = l.arg(1);
        });
        registry.table(GlobalModule.KEYWORDS).add("description", (g, l) -> {
            if (!l.has(1)) {
                throw ConfigException.unspaced("'description' expects a string argument.");
            }
            g.settings().description = l.join(1);
        });
        c.add("clear counters", "clear counters [all]", "clear max statistics counters (or all counters)",
                CliLevel.OPERATOR, StatsModule::clearCounters);
    }

    /** As HAProxy: a proxy's own access rules and {@code stats auth} or {@code stats realm} exclude each other. */
    private static void checkStatsPages(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            StatsPageSpec s = StatsPageSpec.of(p);
            if (s != null && !s.accessRules.isEmpty() && (!s.accounts.isEmpty() || s.realm != null)) {
                diag.configAlert("proxy '" + p.name() + "': stats 'auth'/'realm' and 'http-request' can't be used at the same time.");
            }
        }
    }

    private static void showInfo(CliRequest r) {
        List<String> opts = r.args().subList(2, r.size());
        Map<InfoField, Object> values = ProcessInfo.of(r.process());
        boolean floats = opts.contains("float");
        if (floats) {
            values.replaceAll((f, v) -> f.floats() ? ProcessInfo.asFloat(f, v, r.process()) : v);
        }
        StringBuilder b = new StringBuilder();
        StatFormats.Format format = StatFormats.Format.of(opts);
        if (format == StatFormats.Format.JSON) {
            b.append('[');
            boolean first = true;
            for (InfoField f : InfoField.values()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                b.append("{\"field\":{\"pos\":").append(f.pos()).append(",\"name\":\"").append(f.fieldName())
                        .append("\"},\"processNum\":1,");
                StatFormats.tags(b, f.tags(floats));
                b.append(",\"value\":{\"type\":\"").append(f.type(floats)).append("\",\"value\":");
                StatFormats.jsonValue(b, values.get(f));
                b.append("}}");
            }
            b.append("]\n");
        } else {
            // (desc adds each field's description to either form, as HAProxy's)
            boolean desc = opts.contains("desc");
            for (InfoField f : InfoField.values()) {
                if (format == StatFormats.Format.TYPED) {
                    b.append(f.pos()).append('.').append(f.fieldName()).append(".1:").append(f.tags(floats)).append(':')
                            .append(f.type(floats)).append(':');
                } else {
                    b.append(f.fieldName()).append(": ");
                }
                b.append(values.get(f));
                if (desc) {
                    b.append(":\"").append(f.description()).append('"');
                }
                b.append('\n');
            }
        }
        r.print(b);
    }

    private static void showStat(CliRequest r) throws CliException {
        StatFilter filter = StatFilter.parse(r, r.process());
        boolean legends = r.level().allows(CliLevel.OPERATOR);
        List<StatRow> all = new ProxyRows(r.process()).all();
        if (filter.upOnly() || filter.noMaint()) {
            StatFilter.countServers(all);
        }
        List<StatRow> rows = all.stream().filter(filter::accepts)
                .map(row -> legends ? row : row.withoutLegends()).toList();
        List<String> opts = r.args();
        StringBuilder b = new StringBuilder();
        StatFormats.Format format = StatFormats.Format.of(opts);
        if (format == StatFormats.Format.JSON) {
            StatFormats.json(b, rows);
        } else if (format == StatFormats.Format.TYPED) {
            boolean desc = opts.contains("desc");
            rows.forEach(row -> StatFormats.typed(b, row, desc));
        } else {
            StatFormats.csvHeader(b);
            rows.forEach(row -> StatFormats.csv(b, row));
        }
        r.print(b);
    }

    private static void clearCounters(CliRequest r) throws CliException {
        boolean all = r.arg(2).equals("all");
        if (all) {
            r.require(CliLevel.ADMIN);
        }
        Fulcrum p = r.process();
        for (Frontend fe : p.frontends()) {
            clear(fe.counters(), fe.limit(), all);
        }
        for (Listener l : p.listeners()) {
            if (l.counters() != null) {
                clear(l.counters(), l.limit(), all);
            }
        }
        for (Backend be : p.backends().values()) {
            clear(be.counters(), be.streams(), all);
            be.resetQueuePeaks();
            for (Server s : be.servers()) {
                clear(s.counters(), s.streams(), all);
            }
        }
        clear(p.counters(), all);
        // As HAProxy, either form forgets the process's highest TLS rates (MaxSslRate, Ssl*MaxKeyRate).
        p.acceptRate().tls().resetMax();
        p.services().clearMax();
        if (all) {
            p.services().clearAll(); // (the name servers' counters: HAProxy's resolvers stats module)
        }
        p.loops().clearActivity();
    }

    /** Clears the counters and the connection peak of a frontend, listener, backend or server (and its total with all). */
    private static void clear(Counters c, ConnLimit conns, boolean all) {
        clear(c, all);
        conns.resetPeak();
        if (all) {
            conns.resetTotal();
        }
    }

    private static void clear(Counters c, boolean all) {
        if (all) {
            c.clearAll();
        } else {
            c.clearMax();
        }
    }
}
