package io.fulcrum.stick;

import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxySpec;

import java.util.List;

/**
 * A table named by an action, fetch or converter ({@code table t}, {@code sc_conn_cnt(0,t)}), or left out: then the
 * proxy where it is written. Resolved once every proxy is known (StickModule's check, which reports a missing
 * table as HAProxy does), then read at run time without a lookup.
 */
final class TableRef {
    private String name;
    /** The line of an expression's reference (reported on it), or null for a rule's ({@code track-sc}: on its proxy). */
    private final Source usedAt;
    /**
     * What names the table, as the error says it: "by track-sc0", "in arg 1 of sample fetch keyword 'src_conn_cnt'";
     * null for a stick rule.
     */
    private final String what;
    private String proxy;
    private volatile StickTable table;

    TableRef(String name, Source usedAt, String what, String proxy) {
        this.name = name == null || name.isEmpty() ? null : name;
        this.usedAt = usedAt;
        this.what = what;
        this.proxy = proxy;
    }

    /** The table; null only before the configuration check (never at run time). */
    StickTable get() {
        return table;
    }

    /**
     * Finds the table among {@code tables}; a left-out name is the proxy whose section holds the line. Returns
     * HAProxy's error for an action's or a stick rule's reference (an expression's is ArgResolution's), or null.
     */
    String resolve(StickTables tables, List<ProxySpec> proxies) {
        if (proxy == null) {
            ProxySpec where = section(proxies);
            proxy = where == null ? "" : where.name();
        }
        if (name == null) {
            name = proxy;
        }
        table = tables.get(name);
        if (table != null) {
            return null;
        }
        if (what == null) { // a stick rule's
            return "Proxy '" + proxy + "': unable to find stick-table '" + name + "'.";
        }
        return "Proxy '" + proxy + "': unable to find table '" + name + "' referenced " + what + "."; // (an action's)
    }

    Source usedAt() {
        return usedAt;
    }

    /** The proxy section holding the line: the last one that starts before it in its file. */
    private ProxySpec section(List<ProxySpec> proxies) {
        ProxySpec best = null;
        for (ProxySpec p : proxies) {
            Source s = p.source();
            if (usedAt != null && s != null && s.file().equals(usedAt.file()) && s.line() <= usedAt.line()
                    && (best == null || s.line() > best.source().line())) {
                best = p;
            }
        }
        return best;
    }
}
