package io.fulcrum.stats;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.rules.Services;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.Server;

import java.util.List;
import java.util.Map;

/** The statistics: {@code show info}, {@code show stat}, {@code clear counters}, the Prometheus exporter. */
public final class StatsModule implements Module {

    @Override
    public void register(Registry registry) {
        CliCommands c = CliCommands.of(registry);
        c.add("show info", "show info [desc|json|typed|float]*", "report information about the running process",
                CliLevel.USER, StatsModule::showInfo);
        c.add("show stat", "show stat [desc|json|no-maint|typed|up]*", "report counters for each proxy and server",
                CliLevel.USER, StatsModule::showStat);
        Services.of(registry).add("prometheus-exporter", PrometheusExporter::serve);
        c.add("clear counters", "clear counters [all]", "clear max statistics counters (or all counters)",
                CliLevel.OPERATOR, StatsModule::clearCounters);
    }

    private static void showInfo(CliRequest r) {
        List<String> opts = r.args().subList(2, r.size());
        Map<InfoField, Object> values = ProcessInfo.of(r.process());
        StringBuilder b = new StringBuilder();
        if (opts.contains("json")) {
            b.append('[');
            boolean first = true;
            for (InfoField f : InfoField.values()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                b.append("{\"field\":{\"pos\":").append(f.pos()).append(",\"name\":\"").append(f.fieldName())
                        .append("\"},\"processNum\":1,");
                StatFormats.tags(b, f.tags());
                b.append(",\"value\":{\"type\":\"").append(f.type()).append("\",\"value\":");
                StatFormats.jsonValue(b, values.get(f));
                b.append("}}");
            }
            b.append("]\n");
        } else if (opts.contains("typed")) {
            boolean desc = opts.contains("desc");
            for (InfoField f : InfoField.values()) {
                b.append(f.pos()).append('.').append(f.fieldName()).append(".1:").append(f.tags()).append(':')
                        .append(f.type()).append(':').append(values.get(f));
                if (desc) {
                    b.append(":\"").append(f.description()).append('"');
                }
                b.append('\n');
            }
        } else {
            for (InfoField f : InfoField.values()) {
                b.append(f.fieldName()).append(": ").append(values.get(f)).append('\n');
            }
        }
        r.print(b);
    }

    private static void showStat(CliRequest r) throws CliException {
        StatFilter filter = StatFilter.parse(r, r.process());
        List<StatRow> rows = new ProxyRows(r.process()).all().stream().filter(filter::accepts).toList();
        List<String> opts = r.args();
        StringBuilder b = new StringBuilder();
        if (opts.contains("json")) {
            StatFormats.json(b, rows);
        } else if (opts.contains("typed")) {
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
            clear(fe.counters(), all);
            fe.limit().resetPeak();
            if (all) {
                fe.limit().resetTotal();
            }
        }
        for (Backend be : p.backends().values()) {
            clear(be.counters(), all);
            be.streams().resetPeak();
            if (all) {
                be.streams().resetTotal();
            }
            for (Server s : be.servers()) {
                clear(s.counters(), all);
                s.streams().resetPeak();
                if (all) {
                    s.streams().resetTotal();
                }
            }
        }
        clear(p.counters(), all);
    }

    private static void clear(Counters c, boolean all) {
        if (all) {
            c.clearAll();
        } else {
            c.clearMax();
        }
    }
}
