package io.fulcrum.stats;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.rules.HttpTxn;
import io.fulcrum.rules.Reply;
import io.fulcrum.runtime.Fulcrum;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code http-request use-service prometheus-exporter}: HAProxy's exporter, metric for metric (names, help,
 * types, labels, NaN where HAProxy has no value), with the {@code scope} and {@code no-maint} query
 * parameters; then what HAProxy's lacks: histograms of the connect, response and total times of each
 * backend and server, so that percentiles can be computed.
 */
final class PrometheusExporter {
    private static final List<String> SERVER_STATES = List.of("DOWN", "UP", "MAINT", "DRAIN", "NOLB");
    private static final String[] CODES = {"1xx", "2xx", "3xx", "4xx", "5xx", "other"};
    private static final StatField[] CODE_FIELDS = {StatField.HRSP_1XX, StatField.HRSP_2XX, StatField.HRSP_3XX, StatField.HRSP_4XX,
            StatField.HRSP_5XX, StatField.HRSP_OTHER};
    private static final List<String> CHECK_STATES = List.of("HANA", "SOCKERR", "L4OK", "L4TOUT", "L4CON", "L6OK", "L6TOUT",
            "L6RSP", "L7TOUT", "L7RSP", "L7OK", "L7OKC", "L7STS", "PROCERR", "PROCTOUT", "PROCOK");
    /** Server fields HAProxy reports as NaN rather than leaving out when they have no value. */
    private static final Set<StatField> SERVER_NAN = EnumSet.of(StatField.SLIM, StatField.CHKFAIL, StatField.CHKDOWN,
            StatField.THROTTLE, StatField.DOWNTIME, StatField.SRC_ILIM, StatField.QLIMIT);

    private PrometheusExporter() {
    }

    static Reply serve(HttpTxn txn) {
        Query q = Query.of(txn.request().uri().toString());
        if (q == null) {
            return new Reply.Error(400); // as HAProxy: the proxy's 400 error page
        }
        byte[] body = render(txn.frontend().process(), q).getBytes(StandardCharsets.UTF_8);
        HttpHeaders h = new HttpHeaders();
        h.add("cache-control", "no-cache");
        h.add("content-type", "text/plain; version=0.0.4");
        // HAProxy's exporter always says chunked itself, to HEAD too.
        return StatsPage.framed(h, body, txn.request(), true);
    }

    /** The metric scopes {@code scope=*} asks for. */
    private static final Set<String> ALL_SCOPES = Set.of("process", "frontend", "backend", "server");

    /**
     * The scopes asked for and {@code no-maint}, read as HAProxy 2.6's exporter does: keys and values are URL-decoded;
     * {@code scope=} names global (the process), frontend, backend, server, listener, sticktable or {@code *} (all),
     * several add up, an empty one clears the ones before it, and without any every scope is shown; {@code no-maint}
     * counts with any value; other keys are ignored.
     */
    record Query(Set<String> scopes, boolean noMaint) {
        /** The query of {@code uri}, or null when HAProxy answers 400: a bad escape, a scope without value or unknown. */
        static Query of(String uri) {
            int qm = uri.indexOf('?');
            Set<String> scopes = new java.util.HashSet<>();
            boolean any = false;
            boolean noMaint = false;
            for (String p : qm < 0 ? new String[0] : uri.substring(qm + 1).split("&")) {
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                String key = decode(eq < 0 ? p : p.substring(0, eq));
                String value = eq < 0 ? null : decode(p.substring(eq + 1));
                if (key == null || eq >= 0 && value == null) {
                    return null;
                }
                if (key.equals("no-maint")) {
                    noMaint = true;
                } else if (key.equals("scope")) {
                    any = true;
                    switch (value == null ? "?" : value) {
                        case "" -> scopes.clear();
                        case "*" -> scopes.addAll(ALL_SCOPES);
                        case "global" -> scopes.add("process");
                        case "frontend", "backend", "server" -> scopes.add(value);
                        case "listener", "sticktable" -> { } // no metric of Fulcrum's has these scopes (differences.md)
                        default -> {
                            return null;
                        }
                    }
                }
            }
            return new Query(any ? scopes : ALL_SCOPES, noMaint);
        }

        /** {@code s} with its %XX escapes decoded and '+' as a space, or null for a bad escape. */
        private static String decode(String s) {
            if (s.indexOf('%') < 0 && s.indexOf('+') < 0) {
                return s;
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length());
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '%') {
                    int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                    int lo = hi < 0 ? -1 : Character.digit(s.charAt(i + 2), 16);
                    if (lo < 0) {
                        return null;
                    }
                    out.write(hi << 4 | lo);
                    i += 2;
                } else {
                    out.write(c == '+' ? ' ' : c);
                }
            }
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    static String render(Fulcrum process, Query q) {
        StringBuilder b = new StringBuilder(64 * 1024);
        Map<InfoField, Object> info = ProcessInfo.of(process);
        List<StatRow> rows = new ProxyRows(process).all();
        if (q.noMaint()) {
            rows = rows.stream().filter(r -> r.type() != ObjType.SERVER || !StatFilter.inMaintenance(r)).toList();
        }
        for (PromMetric m : PromMetric.values()) {
            if (!q.scopes().contains(m.scope())) {
                continue;
            }
            int header = b.length();
            b.append("# HELP ").append(m.metricName()).append(' ').append(m.help()).append('\n');
            b.append("# TYPE ").append(m.metricName()).append(' ').append(m.type()).append('\n');
            int samples = b.length();
            if (m.scope().equals("process")) {
                process(b, m, info);
            } else {
                ObjType type = switch (m.scope()) {
                    case "frontend" -> ObjType.FRONTEND;
                    case "backend" -> ObjType.BACKEND;
                    default -> ObjType.SERVER;
                };
                if (m.kind() == PromMetric.Kind.CODE) {
                    // As HAProxy: each code is a stat field of its own, written for every proxy before the next code
                    for (int i = 0; i < CODES.length; i++) {
                        for (StatRow r : rows) {
                            if (r.type() == type) {
                                code(b, m, r, i);
                            }
                        }
                    }
                } else {
                    for (StatRow r : rows) {
                        if (r.type() == type) {
                            proxy(b, m, r, rows);
                        }
                    }
                }
            }
            if (b.length() == samples) {
                b.setLength(header); // as HAProxy, no family without a sample
            }
        }
        for (String scope : List.of("backend", "server")) {
            if (q.scopes().contains(scope)) {
                histograms(b, scope, rows.stream().filter(r -> r.type() == (scope.equals("backend") ? ObjType.BACKEND : ObjType.SERVER)).toList());
            }
        }
        return b.toString();
    }

    private static void process(StringBuilder b, PromMetric m, Map<InfoField, Object> info) {
        String name = m.metricName();
        switch (m.kind()) {
            case BUILD -> b.append(name).append("{version=\"").append(escape(String.valueOf(info.get(InfoField.VERSION)))).append("\"} 1\n");
            case NAN -> b.append(name).append(" NaN\n");
            default -> {
                Object v = info.get(m.info());
                b.append(name).append(' ').append(v == null ? "NaN" : v).append('\n');
            }
        }
    }

    private static void proxy(StringBuilder b, PromMetric m, StatRow r, List<StatRow> rows) {
        if (m.metricName().contains("_http_") && "tcp".equals(r.get(StatField.MODE))) {
            return; // as HAProxy: no HTTP metric for a TCP proxy
        }
        String labels = labels(r);
        String name = m.metricName();
        switch (m.kind()) {
            case STATE -> states(b, m, r, rows, labels);
            default -> {
                StatField f = m.stat();
                Object v = r.get(f);
                if (v == null && f == StatField.CHECK_CODE && r.get(StatField.CHECK_STATUS) != null) {
                    v = 0; // as HAProxy: an enabled check below layer 5 says code 0
                }
                if (v == null) {
                    if (r.type() == ObjType.SERVER && SERVER_NAN.contains(f) || r.type() == ObjType.BACKEND && f == StatField.DOWNTIME) {
                        b.append(name).append('{').append(labels).append("} NaN\n");
                    }
                    return;
                }
                b.append(name).append('{').append(labels).append("} ");
                if (m.kind() == PromMetric.Kind.MILLIS) {
                    b.append(String.format(Locale.ROOT, "%f", ((Long) v) / 1000.0));
                } else {
                    b.append(v);
                }
                b.append('\n');
            }
        }
    }

    /** The sample of HTTP response code {@code i} (1xx... other) of {@code r}, when it is an HTTP proxy. */
    private static void code(StringBuilder b, PromMetric m, StatRow r, int i) {
        Object v = r.get(CODE_FIELDS[i]);
        if (v != null && !"tcp".equals(r.get(StatField.MODE))) {
            b.append(m.metricName()).append('{').append(labels(r)).append(",code=\"").append(CODES[i]).append("\"} ").append(v).append('\n');
        }
    }

    private static void states(StringBuilder b, PromMetric m, StatRow r, List<StatRow> rows, String labels) {
        String name = m.metricName();
        if (m == PromMetric.FRONTEND_STATUS || m == PromMetric.BACKEND_STATUS) {
            String s = String.valueOf(r.get(StatField.STATUS));
            // As HAProxy's exporter: a frontend is up unless stopped (a paused one too), a backend while UP
            boolean up = m == PromMetric.FRONTEND_STATUS ? !s.equals("STOP") : s.startsWith("UP");
            b.append(name).append('{').append(labels).append(",state=\"DOWN\"} ").append(up ? 0 : 1).append('\n');
            b.append(name).append('{').append(labels).append(",state=\"UP\"} ").append(up ? 1 : 0).append('\n');
            return;
        }
        if (m == PromMetric.SERVER_STATUS) {
            String current = serverState(r);
            for (String st : SERVER_STATES) {
                b.append(name).append('{').append(labels).append(",state=\"").append(st).append("\"} ").append(st.equals(current) ? 1 : 0).append('\n');
            }
            return;
        }
        if (m == PromMetric.SERVER_CHECK_STATUS) {
            Object cs = r.get(StatField.CHECK_STATUS);
            if (cs == null) {
                return;
            }
            String current = checkState(cs);
            for (String st : CHECK_STATES) {
                b.append(name).append('{').append(labels).append(",state=\"").append(st).append("\"} ").append(st.equals(current) ? 1 : 0).append('\n');
            }
            return;
        }
        // The backend's aggregates: how many of its servers are in each state (none without a server, as HAProxy).
        List<StatRow> servers = rows.stream().filter(s -> s.type() == ObjType.SERVER && s.proxyId() == r.proxyId()).toList();
        if (servers.isEmpty()) {
            return;
        }
        boolean checks = m == PromMetric.BACKEND_AGG_CHECK_STATUS;
        for (String st : checks ? CHECK_STATES : SERVER_STATES) {
            long n = servers.stream().filter(s -> checks
                    ? s.get(StatField.CHECK_STATUS) != null && st.equals(checkState(s.get(StatField.CHECK_STATUS)))
                    : st.equals(serverState(s))).count();
            b.append(name).append('{').append(labels).append(",state=\"").append(st).append("\"} ").append(n).append('\n');
        }
    }

    /** DOWN, UP, MAINT, DRAIN or NOLB, from the status text of "show stat" ("UP 1/3", "no check", "MAINT (via b/s)"...). */
    private static String serverState(StatRow r) {
        String s = String.valueOf(r.get(StatField.STATUS));
        if (s.startsWith("MAINT")) {
            return "MAINT";
        }
        if (s.startsWith("DRAIN")) {
            return "DRAIN";
        }
        if (s.startsWith("NOLB")) {
            return "NOLB";
        }
        return s.startsWith("UP") || s.equals("no check") ? "UP" : "DOWN";
    }

    /** The check status without the "* " of a check in progress. */
    private static String checkState(Object status) {
        String s = status.toString();
        return s.startsWith("* ") ? s.substring(2) : s;
    }

    private static void histograms(StringBuilder b, String scope, List<StatRow> rows) {
        String[][] kinds = {{"connect", "Time spent waiting for a connection to complete (Tc)"},
                {"response", "Time spent waiting for a server response (Tr)"},
                {"total", "Total time of the transaction (Tt)"}};
        for (String[] k : kinds) {
            String name = "haproxy_" + scope + "_" + k[0] + "_time_seconds";
            b.append("# HELP ").append(name).append(' ').append(k[1]).append(", as a histogram (a Fulcrum extension)\n");
            b.append("# TYPE ").append(name).append(" histogram\n");
            for (StatRow r : rows) {
                Counters c = r.counters();
                LatencyHistogram h = switch (k[0]) {
                    case "connect" -> c.connectHistogram();
                    case "response" -> c.responseHistogram();
                    default -> c.totalHistogram();
                };
                String labels = labels(r);
                for (int i = 0; i < LatencyHistogram.BOUNDS_MS.length; i++) {
                    long bound = LatencyHistogram.BOUNDS_MS[i];
                    String le = bound == Long.MAX_VALUE ? "+Inf" : String.format(Locale.ROOT, "%s", bound / 1000.0);
                    b.append(name).append("_bucket{").append(labels).append(",le=\"").append(le).append("\"} ").append(h.cumulative(i)).append('\n');
                }
                b.append(name).append("_sum{").append(labels).append("} ").append(String.format(Locale.ROOT, "%f", h.sumMillis() / 1000.0)).append('\n');
                b.append(name).append("_count{").append(labels).append("} ").append(h.cumulative(LatencyHistogram.BOUNDS_MS.length - 1)).append('\n');
            }
        }
    }

    private static String labels(StatRow r) {
        String proxy = "proxy=\"" + escape(String.valueOf(r.get(StatField.PXNAME))) + "\"";
        return r.type() == ObjType.SERVER ? proxy + ",server=\"" + escape(String.valueOf(r.get(StatField.SVNAME))) + "\"" : proxy;
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
