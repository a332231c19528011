package io.fulcrum.stats;

import io.fulcrum.cli.HumanTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import static io.fulcrum.stats.StatField.*;

/**
 * The HTML statistics page, laid out as HAProxy's: the process information with the legend of the colours and the
 * display options, then a table per proxy with its frontend, servers and backend, in the Queue / Session rate /
 * Sessions / Bytes / Denied / Errors / Warnings / Server columns, details in tooltips. Every value comes from the
 * rows of {@code show stat} ({@link StatRow}), so the page and the CSV always agree.
 */
final class StatsHtml {
    private static final String CSS = Resources.text("stats-page.css");
    /** The extra modules' fields (those after the "-" column) by module, named by their prefix: ssl, h2, h1. */
    private static final Map<String, List<StatField>> MODULES = modules();
    /** The admin form's actions, as HAProxy offers them (its "Kill Sessions" is not there: Fulcrum cannot yet). */
    private static final String[][] ACTIONS = {
        {"", ""}, {"ready", "Set state to READY"}, {"drain", "Set state to DRAIN"}, {"maint", "Set state to MAINT"},
        {"dhlth", "Health: disable checks"}, {"ehlth", "Health: enable checks"}, {"hrunn", "Health: force UP"},
        {"hnolb", "Health: force NOLB"}, {"hdown", "Health: force DOWN"}, {"dagent", "Agent: disable checks"},
        {"eagent", "Agent: enable checks"}, {"arunn", "Agent: force UP"}, {"adown", "Agent: force DOWN"}};

    private final StringBuilder b;
    private final StatsPage page;
    private final StatsQuery q;
    private final boolean admin;
    /** "?scope=NAME" when the page is scoped, for the links that keep it. */
    private final String scope;

    StatsHtml(StringBuilder b, StatsPage page, StatsQuery q, boolean admin) {
        this.b = b;
        this.page = page;
        this.q = q;
        this.admin = admin;
        this.scope = q.scope().isEmpty() ? "" : "?scope=" + q.scope();
    }

    private static Map<String, List<StatField>> modules() {
        Map<String, List<StatField>> modules = new LinkedHashMap<>();
        for (StatField f : StatField.values()) {
            if (f.ordinal() > LAST_STATIC.ordinal()) {
                modules.computeIfAbsent(f.fieldName().substring(0, f.fieldName().indexOf('_')), k -> new ArrayList<>()).add(f);
            }
        }
        return modules;
    }

    /**
     * @param all   every row, for what a proxy is (its capabilities, whether it has servers)
     * @param shown the rows the scope and the options let through
     * @param globalDescription the global {@code description}, shown by a {@code stats show-desc} without text
     */
    /** @param descriptions the {@code description} of the proxy of an id, or null */
    void render(Map<InfoField, Object> info, List<StatRow> all, List<StatRow> shown, String globalDescription,
                IntFunction<String> descriptions) {
        head(info, globalDescription);
        processInfo(info);
        if (q.status() != null) {
            b.append("<p><div class=").append(q.status().style()).append("><a class=lfsb href=\"").append(page.uri())
                    .append(q.hideDown() ? ";up" : "").append(q.noRefresh() ? ";norefresh" : "").append(scope)
                    .append("\" title=\"Remove this message\">[X]</a> ").append(q.status().message()).append("</div>\n<p>\n");
        }
        Map<Integer, List<StatRow>> proxies = new LinkedHashMap<>();
        shown.forEach(r -> proxies.computeIfAbsent(r.proxyId(), k -> new ArrayList<>()).add(r));
        proxies.forEach((id, rows) -> proxy(rows, all.stream().filter(r -> r.proxyId() == id).toList(), descriptions.apply(id)));
        b.append("</body></html>\n");
    }

    // ---- the page's head and the process block

    private void head(Map<InfoField, Object> info, String globalDescription) {
        String node = page.node == null ? null : page.node.isEmpty() ? String.valueOf(info.get(InfoField.NODE)) : page.node;
        b.append("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\"http://www.w3.org/TR/html4/loose.dtd\">\n")
                .append("<html><head><title>Statistics Report for Fulcrum").append(node == null ? "" : " on " + html(node))
                .append("</title>\n<link rel=\"icon\" href=\"data:,\">\n")
                .append("<meta http-equiv=\"content-type\" content=\"text/html; charset=iso-8859-1\">\n")
                .append("<style type=\"text/css\"><!--\n").append(CSS).append("-->\n</style></head>\n");
        b.append("<body><h1>Fulcrum");
        if (!page.hideVersion) {
            b.append(" version ").append(html(info.get(InfoField.VERSION))).append(", released ").append(html(info.get(InfoField.RELEASE_DATE)));
        }
        b.append("</h1>\n<h2>Statistics Report for pid ").append(info.get(InfoField.PID));
        if (node != null) {
            b.append(" on ").append(html(node));
        }
        String desc = page.description == null || page.description.isEmpty() ? globalDescription : page.description;
        if (page.description != null && desc != null) {
            b.append(": ").append(html(desc));
        }
        b.append("</h2>\n<hr width=\"100%\" class=\"hr\">\n<h3>&gt; General process information</h3>\n");
    }

    private void processInfo(Map<InfoField, Object> info) {
        long memmax = (Long) info.get(InfoField.MEMMAX_MB);
        b.append("<table border=0><tr><td align=\"left\" nowrap width=\"1%\">\n")
                .append("<p><b>pid = </b> ").append(info.get(InfoField.PID)).append(" (process #1, nbproc = 1, nbthread = ")
                .append(info.get(InfoField.NBTHREAD)).append(")<br>\n")
                .append("<b>uptime = </b> ").append(info.get(InfoField.UPTIME)).append("<br>\n")
                .append("<b>system limits:</b> memmax = ").append(memmax == 0 ? "unlimited" : memmax + " MB")
                .append("; ulimit-n = ").append(info.get(InfoField.ULIMIT_N)).append("<br>\n")
                .append("<b>maxsock = </b> ").append(info.get(InfoField.MAXSOCK)).append("; <b>maxconn = </b> ")
                .append(info.get(InfoField.MAXCONN)).append("; <b>maxpipes = </b> ").append(info.get(InfoField.MAXPIPES)).append("<br>\n")
                .append("current conns = ").append(info.get(InfoField.CURRCONNS)).append("; current pipes = ")
                .append(info.get(InfoField.PIPESUSED)).append('/')
                .append((Long) info.get(InfoField.PIPESUSED) + (Long) info.get(InfoField.PIPESFREE))
                .append("; conn rate = ").append(info.get(InfoField.CONNRATE)).append("/sec; bit rate = ")
                .append(bitRate((Long) info.get(InfoField.BYTESOUTRATE))).append("<br>\n")
                .append("Running tasks: ").append(info.get(InfoField.RUN_QUEUE)).append('/').append(info.get(InfoField.TASKS))
                .append("; idle = ").append(info.get(InfoField.IDLE_PCT)).append(" %<br>\n")
                .append("</td><td align=\"center\" nowrap>\n");
        legend();
        options();
        b.append("<td align=\"left\" valign=\"top\" nowrap width=\"1%\"><b>External resources:</b><ul style=\"margin-top: 0.25em;\">\n")
                .append("<li><a href=\"http://docs.haproxy.org/2.6/configuration.html\">HAProxy 2.6 manual (the language)</a><br>\n")
                .append("</ul></td></tr></table>\n");
    }

    private static String bitRate(long bytesPerSecond) {
        double bits = bytesPerSecond * 8.0;
        char unit = 'k';
        double scaled = bits / 1e3;
        if (bits >= 1e9) {
            unit = 'G';
            scaled = bits / 1e9;
        } else if (bits >= 1e6) {
            unit = 'M';
            scaled = bits / 1e6;
        }
        return String.format(Locale.ROOT, "%.3f %cbps", scaled, unit);
    }

    /** The colours of the servers' rows. */
    private void legend() {
        b.append("<table class=\"lgd\"><tr>\n")
                .append("<td class=\"active_up\">&nbsp;</td><td class=\"noborder\">active UP </td>")
                .append("<td class=\"backup_up\">&nbsp;</td><td class=\"noborder\">backup UP </td></tr><tr>\n")
                .append("<td class=\"active_going_down\"></td><td class=\"noborder\">active UP, going down </td>")
                .append("<td class=\"backup_going_down\"></td><td class=\"noborder\">backup UP, going down </td></tr><tr>\n")
                .append("<td class=\"active_going_up\"></td><td class=\"noborder\">active DOWN, going up </td>")
                .append("<td class=\"backup_going_up\"></td><td class=\"noborder\">backup DOWN, going up </td></tr><tr>\n")
                .append("<td class=\"active_down\"></td><td class=\"noborder\">active or backup DOWN &nbsp;</td>")
                .append("<td class=\"active_no_check\"></td><td class=\"noborder\">not checked </td></tr><tr>\n")
                .append("<td class=\"maintain\"></td><td class=\"noborder\" colspan=\"3\">active or backup DOWN for maintenance (MAINT) &nbsp;</td></tr><tr>\n")
                .append("<td class=\"active_draining\"></td><td class=\"noborder\" colspan=\"3\">active or backup SOFT STOPPED for maintenance &nbsp;</td></tr></table>\n")
                .append("Note: \"NOLB\"/\"DRAIN\" = UP with load-balancing disabled.</td>");
    }

    /** Scope, hide DOWN servers, refresh, exports: links that keep the other options. */
    private void options() {
        String uri = page.uri();
        String up = q.hideDown() ? ";up" : "";
        String norefresh = q.noRefresh() ? ";norefresh" : "";
        b.append("<td align=\"left\" valign=\"top\" nowrap width=\"1%\"><b>Display option:</b><ul style=\"margin-top: 0.25em;\">")
                .append("<li><form method=\"GET\">Scope : <input value=\"").append(html(q.scope()))
                .append("\" name=\"scope\" size=\"8\" maxlength=\"20\" tabindex=\"1\"/></form>\n");
        if (q.hideDown()) {
            b.append("<li><a href=\"").append(uri).append(norefresh).append(scope).append("\">Show all servers</a><br>\n");
        } else {
            b.append("<li><a href=\"").append(uri).append(";up").append(norefresh).append(scope).append("\">Hide 'DOWN' servers</a><br>\n");
        }
        if (page.refreshSeconds() > 0) {
            if (q.noRefresh()) {
                b.append("<li><a href=\"").append(uri).append(up).append(scope).append("\">Enable refresh</a><br>\n");
            } else {
                b.append("<li><a href=\"").append(uri).append(up).append(";norefresh").append(scope).append("\">Disable refresh</a><br>\n");
            }
        }
        String exportRefresh = page.refreshSeconds() > 0 ? ";norefresh" : "";
        b.append("<li><a href=\"").append(uri).append(up).append(norefresh).append(scope).append("\">Refresh now</a><br>\n")
                .append("<li><a href=\"").append(uri).append(";csv").append(exportRefresh).append(scope).append("\">CSV export</a><br>\n")
                .append("<li><a href=\"").append(uri).append(";json").append(exportRefresh).append(scope).append("\">JSON export</a><br>\n")
                .append("</ul></td>");
    }

    // ---- a proxy

    /**
     * @param rows what is shown of the proxy
     * @param all  all its rows
     */
    private void proxy(List<StatRow> rows, List<StatRow> all, String description) {
        StatRow first = rows.getFirst();
        String name = html(first.get(PXNAME));
        boolean fe = all.stream().anyMatch(r -> r.type() == ObjType.FRONTEND);
        boolean be = all.stream().anyMatch(r -> r.type() == ObjType.BACKEND);
        boolean form = admin && be && all.stream().anyMatch(r -> r.type() == ObjType.SERVER);
        if (form) {
            b.append("<form method=\"post\">");
        }
        b.append("<table class=\"tbl\" width=\"100%\">\n<tr class=\"titre\"><th class=\"pxname\" width=\"10%\"><a name=\"").append(name)
                .append("\"></a>");
        if (page.legends) {
            b.append("<u><a class=px href=\"#").append(name).append("\">").append(name).append("</a><div class=tips>cap: ")
                    .append(fe && be ? "proxy" : fe ? "frontend" : "backend").append(", mode: ").append(html(first.get(MODE)))
                    .append(", id: ").append(first.get(IID)).append("</div></u>");
        } else {
            b.append("<a class=px href=\"#").append(name).append("\">").append(name).append("</a>");
        }
        b.append("</th><th class=\"").append(description == null ? "empty" : "desc").append("\" width=\"90%\">")
                .append(description == null ? "" : html(description))
                .append("</th></tr>\n</table>\n<table class=\"tbl\" width=\"100%\">\n<tr class=\"titre\">");
        if (admin) {
            if (form) {
                b.append("<th rowspan=2 width=1><input type=\"checkbox\" onclick=\"for(c in document.getElementsByClassName('")
                        .append(name).append("-checkbox')) document.getElementsByClassName('").append(name)
                        .append("-checkbox').item(c).checked = this.checked\"></th>");
            } else {
                b.append("<th rowspan=2></th>");
            }
        }
        b.append("<th rowspan=2></th><th colspan=3>Queue</th><th colspan=3>Session rate</th><th colspan=6>Sessions</th>")
                .append("<th colspan=2>Bytes</th><th colspan=2>Denied</th><th colspan=3>Errors</th><th colspan=2>Warnings</th>")
                .append("<th colspan=9>Server</th>");
        if (page.modules) {
            b.append("<th colspan=").append(MODULES.size()).append(">Extra modules</th>");
        }
        b.append("</tr>\n<tr class=\"titre\">");
        for (String t : new String[] {"Cur", "Max", "Limit", "Cur", "Max", "Limit", "Cur", "Max", "Limit", "Total", "LbTot", "Last",
                "In", "Out", "Req", "Resp", "Req", "Conn", "Resp", "Retr", "Redis", "Status", "LastChk", "Wght", "Act", "Bck", "Chk",
                "Dwn", "Dwntme", "Thrtle"}) {
            b.append("<th>").append(t).append("</th>");
        }
        b.append('\n');
        if (page.modules) {
            MODULES.keySet().forEach(m -> b.append("<th>").append(m).append("</th>"));
        }
        b.append("</tr>");
        for (StatRow r : rows) {
            switch (r.type()) {
                case FRONTEND -> frontend(r);
                case LISTENER -> listener(r);
                case SERVER -> server(r);
                case BACKEND -> backend(r);
            }
        }
        b.append("</table>");
        if (form) {
            b.append("Choose the action to perform on the checked servers : <select name=action>");
            for (String[] a : ACTIONS) {
                b.append("<option value=\"").append(a[0]).append("\">").append(a[1]).append("</option>");
            }
            b.append("</select><input type=\"hidden\" name=\"b\" value=\"#").append(first.get(IID))
                    .append("\">&nbsp;<input type=\"submit\" value=\"Apply\"></form>");
        }
        b.append("<p>\n");
    }

    /** The row's first cells: the admin checkbox column (empty but for servers), and its name, an anchor. */
    private void nameCells(StatRow r, String label, String tips) {
        String px = html(r.get(PXNAME));
        if (admin) {
            if (r.type() == ObjType.SERVER) {
                b.append("<td><input class='").append(px).append("-checkbox' type=\"checkbox\" name=\"s\" value=\"")
                        .append(html(r.get(SVNAME))).append("\"></td>");
            } else {
                b.append("<td></td>");
            }
        }
        String anchor = px + "/" + html(label);
        b.append("<td class=ac>");
        if (tips != null && page.legends && r.type() == ObjType.BACKEND) {
            b.append("<u><a name=\"").append(anchor).append("\"></a><a class=lfsb href=\"#").append(anchor).append("\">")
                    .append(html(label)).append("</a><div class=tips>").append(tips).append("</div></u>");
        } else if (tips != null && page.legends) {
            b.append("<a name=\"").append(anchor).append("\"></a><u><a class=lfsb href=\"#").append(anchor).append("\">")
                    .append(html(label)).append("</a><div class=tips>").append(tips).append("</div></u>");
        } else {
            b.append("<a name=\"").append(anchor).append("\"></a><a class=lfsb href=\"#").append(anchor).append("\">")
                    .append(html(label)).append("</a>");
        }
        b.append("</td>");
    }

    private static boolean http(StatRow r) {
        return "http".equals(r.get(MODE));
    }

    private void frontend(StatRow r) {
        boolean http = http(r);
        b.append("<tr class=\"frontend\">");
        nameCells(r, "Frontend", null);
        b.append("<td colspan=3></td>");
        // session rate: current, max, limit
        Tips now = new Tips().line("Current connection rate:", num(r, CONN_RATE) + "/s").line("Current session rate:", num(r, RATE) + "/s");
        Tips max = new Tips().line("Max connection rate:", num(r, CONN_RATE_MAX) + "/s").line("Max session rate:", num(r, RATE_MAX) + "/s");
        if (http) {
            now.line("Current request rate:", num(r, REQ_RATE) + "/s");
            max.line("Max request rate:", num(r, REQ_RATE_MAX) + "/s");
        }
        tipCell(num(r, RATE), now);
        tipCell(num(r, RATE_MAX), max);
        cell(limit(r, RATE_LIM));
        // sessions: current, max, limit, total
        cell(num(r, SCUR)).cell(num(r, SMAX)).cell(limit(r, SLIM));
        Tips total = new Tips().line("Cum. connections:", num(r, CONN_TOT)).line("Cum. sessions:", num(r, STOT));
        if (http) {
            total.line("Cum. HTTP requests:", num(r, REQ_TOT));
            responses(total, r, false);
            total.line("Intercepted requests:", num(r, INTERCEPTED)).line("Cache lookups:", num(r, CACHE_LOOKUPS))
                    .pct("Cache hits:", r, CACHE_HITS, CACHE_LOOKUPS).line("Failed hdr rewrites:", num(r, WREW))
                    .line("Internal errors:", num(r, EINT));
        }
        tipCell(num(r, STOT), total);
        b.append("<td></td><td></td>");
        bytes(r);
        cell(num(r, DREQ)).cell(num(r, DRESP)).cell(num(r, EREQ));
        b.append("<td></td><td></td><td></td><td></td>");
        b.append("<td class=ac>").append(html(r.get(STATUS))).append("</td><td class=ac colspan=8></td>");
        modules(r);
        b.append("</tr>");
    }

    /** A listener's row ({@code option socket-stats}), as HAProxy draws it: sessions, bytes, denials, errors, status. */
    private void listener(StatRow r) {
        b.append("<tr class=socket>");
        if (admin) {
            b.append("<td></td>");
        }
        String name = html(r.get(SVNAME));
        String anchor = html(r.get(PXNAME)) + "/+" + name; // "+": not a server's anchor
        b.append("<td class=ac><a name=\"").append(anchor).append("\"></a>").append(page.legends ? "<u>" : "")
                .append("<a class=lfsb href=\"#").append(anchor).append("\">").append(name).append("</a>");
        if (page.legends) {
            b.append("<div class=tips>").append(serverTips(r)).append("</div></u>");
        }
        b.append("</td><td colspan=3></td><td colspan=3>&nbsp;</td>");
        cell(num(r, SCUR)).cell(num(r, SMAX)).cell(num(r, SLIM)).cell(num(r, STOT));
        b.append("<td>&nbsp;</td><td>&nbsp;</td>");
        cell(num(r, BIN)).cell(num(r, BOUT)).cell(num(r, DREQ)).cell(num(r, DRESP)).cell(num(r, EREQ));
        b.append("<td></td><td></td><td></td><td></td><td class=ac>").append(html(r.get(STATUS)))
                .append("</td><td class=ac colspan=8></td>");
        modules(r);
        b.append("</tr>");
    }

    private void server(StatRow r) {
        boolean http = http(r);
        b.append("<tr class=\"").append(style(r)).append("\">");
        nameCells(r, String.valueOf(r.get(SVNAME)), serverTips(r));
        cell(num(r, QCUR)).cell(num(r, QMAX)).cell(limit(r, QLIMIT));
        cell(num(r, RATE)).cell(num(r, RATE_MAX)).cell("");
        Tips current = new Tips().line("Current active connections:", num(r, SCUR))
                .line("Current used connections:", num(r, USED_CONN_CUR)).line("Current idle connections:", num(r, SRV_ICUR))
                .line("- unsafe:", num(r, IDLE_CONN_CUR)).line("- safe:", num(r, SAFE_CONN_CUR))
                .line("Estimated need of connections:", num(r, NEED_CONN_EST)).line("Active connections limit:", limit(r, SLIM))
                .line("Idle connections limit:", limit(r, SRC_ILIM));
        tipCell(num(r, SCUR), current);
        cell(num(r, SMAX)).cell(limit(r, SLIM));
        Tips total = new Tips().line("Cum. sessions:", num(r, STOT)).line("New connections:", num(r, CONNECT))
                .pct("Reused connections:", r, REUSE, CONNECT, REUSE);
        if (http) {
            total.line("Cum. HTTP requests:", num(r, REQ_TOT));
            responses(total, r, true);
            total.line("Failed hdr rewrites:", num(r, WREW)).line("Internal error:", num(r, EINT));
        }
        times(total, r);
        tipCell(num(r, STOT), total);
        cell(num(r, LBTOT)).cell(human(r.get(LASTSESS)));
        cell(num(r, BIN)).cell(num(r, BOUT));
        cell("").cell(num(r, DRESP));
        cell("").cell(num(r, ECON));
        resets(r);
        cell(num(r, WRETR)).cell(num(r, WREDIS));
        String status = String.valueOf(r.get(STATUS));
        b.append("<td class=ac>");
        if (status.startsWith("MAINT")) {
            b.append(human(r.get(LASTCHG))).append(" MAINT");
        } else if (status.equals("no check")) {
            b.append("<i>no check</i>");
        } else {
            b.append(human(r.get(LASTCHG))).append(' ').append(html(status));
        }
        b.append("</td>");
        lastCheck(r);
        b.append("<td class=ac>").append(num(r, WEIGHT)).append('/').append(num(r, UWEIGHT)).append("</td>");
        boolean backup = r.get(BCK) instanceof Long n && n != 0;
        b.append("<td class=ac>").append(backup ? "-" : "Y").append("</td><td class=ac>").append(backup ? "Y" : "-").append("</td>");
        if (r.get(CHKFAIL) != null) {
            b.append("<td><u>").append(r.get(CHKFAIL));
            if (r.get(HANAFAIL) != null) {
                b.append('/').append(r.get(HANAFAIL));
            }
            b.append("<div class=tips>Failed Health Checks").append(r.get(HANAFAIL) != null ? "/Health Analyses" : "")
                    .append("</div></u></td><td>").append(num(r, CHKDOWN)).append("</td><td>").append(human(r.get(DOWNTIME))).append("</td>");
        } else if (!status.equals("MAINT") && r.get(TRACKED) != null) {
            String t = html(r.get(TRACKED));
            b.append("<td class=ac colspan=3><a class=lfsb href=\"#").append(t).append("\">via ").append(t).append("</a></td>");
        } else {
            b.append("<td colspan=3></td>");
        }
        b.append("<td class=ac>").append(r.get(THROTTLE) != null ? r.get(THROTTLE) + " %" : "-").append("</td>");
        modules(r);
        b.append("</tr>\n");
    }

    /** "IPv4: 127.0.0.1:80, id: 1, cookie: 'a'": shown with {@code stats show-legends}. */
    private static String serverTips(StatRow r) {
        StringBuilder t = new StringBuilder();
        String addr = r.get(ADDR) == null ? "" : r.get(ADDR).toString();
        if (!addr.isEmpty()) {
            t.append(Character.isDigit(addr.charAt(0)) ? "IPv4: " : addr.charAt(0) == '[' ? "IPv6: " : "").append(html(addr)).append(", ");
        }
        t.append("id: ").append(r.get(SID));
        if (r.get(COOKIE) != null) {
            t.append(", cookie: '").append(html(r.get(COOKIE))).append('\'');
        }
        return t.toString();
    }

    /** The last check: its status, code and duration; its description and details in the tooltip. */
    private void lastCheck(StatRow r) {
        Object status = r.get(CHECK_STATUS);
        if (status == null) {
            b.append("<td></td>");
            return;
        }
        b.append("<td class=ac><u> ").append(html(status));
        if (r.get(CHECK_CODE) != null) {
            b.append('/').append(r.get(CHECK_CODE));
        }
        if (r.get(CHECK_DURATION) instanceof Long d && d >= 0) {
            b.append(" in ").append(d).append("ms");
        }
        b.append("<div class=tips>").append(html(r.get(CHECK_DESC) == null ? "" : r.get(CHECK_DESC)));
        Object last = r.get(LAST_CHK);
        if (last != null && !last.toString().isEmpty()) {
            b.append(": ").append(html(last));
        }
        b.append("</div></u></td>");
    }

    private void backend(StatRow r) {
        boolean http = http(r);
        b.append("<tr class=\"backend\">");
        String tips = "balancing: " + html(r.get(ALGO) == null ? "" : r.get(ALGO))
                + (r.get(COOKIE) != null ? ", cookie: '" + html(r.get(COOKIE)) + "'" : "");
        nameCells(r, "Backend", tips);
        cell(num(r, QCUR)).cell(num(r, QMAX)).cell("");
        cell(num(r, RATE)).cell(num(r, RATE_MAX)).cell("");
        cell(num(r, SCUR)).cell(num(r, SMAX)).cell(num(r, SLIM));
        Tips total = new Tips().line("Cum. sessions:", num(r, STOT)).line("New connections:", num(r, CONNECT))
                .pct("Reused connections:", r, REUSE, CONNECT, REUSE);
        if (http) {
            total.line("Cum. HTTP requests:", num(r, REQ_TOT));
            responses(total, r, false);
            total.line("Cache lookups:", num(r, CACHE_LOOKUPS)).pct("Cache hits:", r, CACHE_HITS, CACHE_LOOKUPS)
                    .line("Failed hdr rewrites:", num(r, WREW)).line("Internal errors:", num(r, EINT));
        }
        times(total, r);
        tipCell(num(r, STOT), total);
        cell(num(r, LBTOT)).cell(human(r.get(LASTSESS)));
        bytes(r);
        cell(num(r, DREQ)).cell(num(r, DRESP));
        cell("").cell(num(r, ECON));
        resets(r);
        cell(num(r, WRETR)).cell(num(r, WREDIS));
        b.append("<td class=ac>").append(human(r.get(LASTCHG))).append(' ').append(html(r.get(STATUS))).append("</td>")
                .append("<td class=ac>&nbsp;</td><td class=ac>").append(num(r, WEIGHT)).append('/').append(num(r, UWEIGHT))
                .append("</td><td class=ac>").append(num(r, ACT)).append("</td><td class=ac>").append(num(r, BCK))
                .append("</td><td class=ac>&nbsp;</td>");
        cell(num(r, CHKDOWN));
        cell(r.get(DOWNTIME) != null ? human(r.get(DOWNTIME)) : "&nbsp;");
        b.append("<td></td>");
        modules(r);
        b.append("</tr>");
    }

    // ---- pieces of rows

    /**
     * {@code stats show-modules}: a cell per extra module, its counters in a tooltip (their descriptions as labels),
     * empty where the module counts nothing for the row's kind (h2 and h1 for servers).
     */
    private void modules(StatRow r) {
        if (!page.modules) {
            return;
        }
        MODULES.forEach((name, fields) -> {
            b.append("<td>");
            if (fields.getFirst().appliesTo(r.type())) {
                b.append("<u>").append(name).append("<div class=tips><table class=det>");
                for (StatField f : fields) {
                    b.append("<tr><th>").append(f.description()).append("</th><td>").append(num(r, f)).append("</td></tr>");
                }
                b.append("</table></div></u>");
            }
            b.append("</td>");
        });
    }

    /** "- HTTP 2xx responses:" and the others; a server's with their share of its requests. */
    private static void responses(Tips t, StatRow r, boolean shares) {
        StatField[] codes = {HRSP_1XX, HRSP_2XX, HRSP_3XX, HRSP_4XX, HRSP_5XX};
        for (int i = 0; i < codes.length; i++) {
            String label = "- HTTP " + (i + 1) + "xx responses:";
            if (shares) {
                t.pct(label, r, codes[i], REQ_TOT);
            } else {
                t.line(label, num(r, codes[i]));
            }
            if (codes[i] == HRSP_2XX && !shares) {
                t.pct("&nbsp;&nbsp;Compressed 2xx:", r, COMP_RSP, HRSP_2XX);
            }
        }
        if (shares) {
            t.pct("- other responses:", r, HRSP_OTHER, REQ_TOT);
        } else {
            t.line("- other responses:", num(r, HRSP_OTHER));
        }
    }

    private static void times(Tips t, StatRow r) {
        t.raw("<tr><th colspan=3>Max / Avg over last 1024 success. conn.</th></tr>");
        t.ms("- Queue time:", r, QTIME_MAX, QTIME).ms("- Connect time:", r, CTIME_MAX, CTIME)
                .ms("- Responses time:", r, RTIME_MAX, RTIME).ms("- Total time:", r, TTIME_MAX, TTIME);
    }

    /** In, and Out with what compression did to it. */
    private void bytes(StatRow r) {
        long in = longOf(r, COMP_IN);
        long out = longOf(r, COMP_OUT);
        long bout = longOf(r, BOUT);
        cell(num(r, BIN));
        b.append("<td>").append(num(r, BOUT)).append("<div class=tips><table class=det>")
                .append("<tr><th>Response bytes in:</th><td>").append(num(r, BOUT)).append("</td></tr>")
                .append("<tr><th>Compression in:</th><td>").append(num(r, COMP_IN)).append("</td></tr>")
                .append("<tr><th>Compression out:</th><td>").append(num(r, COMP_OUT)).append("</td><td>(")
                .append(in == 0 ? 0 : out * 100 / in).append("%)</td></tr>")
                .append("<tr><th>Compression bypass:</th><td>").append(num(r, COMP_BYP)).append("</td></tr>")
                .append("<tr><th>Total bytes saved:</th><td>").append(u2h(in - out)).append("</td><td>(")
                .append(bout == 0 ? 0 : (in - out) * 100 / bout).append("%)</td></tr>")
                .append("</table></div></td>");
    }

    private void resets(StatRow r) {
        b.append("<td><u>").append(num(r, ERESP)).append("<div class=tips>Connection resets during transfers: ")
                .append(num(r, CLI_ABRT)).append(" client, ").append(num(r, SRV_ABRT)).append(" server</div></u></td>");
    }

    private StatsHtml cell(String content) {
        b.append("<td>").append(content).append("</td>");
        return this;
    }

    private void tipCell(String value, Tips tips) {
        b.append("<td><u>").append(value).append("<div class=tips><table class=det>").append(tips.b).append("</table></div></u></td>");
    }

    /**
     * A server row's class, from its fields as HAProxy's page decides it: down, going up (DOWN n/m), draining,
     * going down (NOLB n/m, or UP with failed checks), no LB, not checked, up; maintenance has its own.
     */
    static String style(StatRow r) {
        String status = String.valueOf(r.get(STATUS));
        if (status.startsWith("MAINT")) {
            return "maintain";
        }
        String style;
        if (status.equals("DOWN") || status.equals("DOWN (agent)")) {
            style = "down";
        } else if (status.startsWith("DOWN ")) {
            style = "going_up";
        } else if (status.equals("DRAIN")) {
            style = "draining";
        } else if (status.startsWith("NOLB ")) {
            style = "going_down";
        } else if (status.equals("NOLB")) {
            style = "nolb";
        } else if (status.equals("no check")) {
            style = "no_check";
        } else if (r.get(CHKFAIL) == null || longOf(r, CHECK_HEALTH) == longOf(r, CHECK_RISE) + longOf(r, CHECK_FALL) - 1) {
            style = longOf(r, WEIGHT) != 0 ? "up" : "draining";
        } else {
            style = "going_down";
        }
        return (longOf(r, BCK) != 0 ? "backup_" : "active_") + style;
    }

    // ---- values

    private static long longOf(StatRow r, StatField f) {
        return r.get(f) instanceof Long n ? n : 0;
    }

    /** A number as the page shows it: thousands spaced (see {@link #u2h}); empty for no value. */
    private static String num(StatRow r, StatField f) {
        Object v = r.get(f);
        return v instanceof Long n ? u2h(n) : v == null ? "" : html(v);
    }

    /** A limit: "-" for none (0 or no value). */
    private static String limit(StatRow r, StatField f) {
        return r.get(f) instanceof Long n && n != 0 ? u2h(n) : "-";
    }

    /** "1<span class="rls">234</span>567" for 1234567: each group of thousands but the last in a spaced span. */
    static String u2h(long n) {
        String digits = Long.toString(n);
        int lead = digits.length() % 3 == 0 ? 3 : digits.length() % 3;
        if (digits.length() <= 3 || n < 0) {
            return digits;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < digits.length(); i += i == 0 ? lead : 3) {
            int end = i == 0 ? lead : i + 3;
            if (end >= digits.length()) {
                out.append(digits, i, end);
            } else {
                out.append("<span class=\"rls\">").append(digits, i, end).append("</span>");
            }
        }
        return out.toString();
    }

    /** "1d2h", "3h4m", "5m6s", "7s", as HAProxy's human_time(); "?" when unknown (negative or no value). */
    static String human(Object seconds) {
        return seconds instanceof Long t ? HumanTime.of(t) : "?";
    }

    static String html(Object v) {
        String s = String.valueOf(v);
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (rep != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                out.append(rep != null ? rep : String.valueOf(c));
            }
        }
        return out == null ? s : out.toString();
    }

    /** The lines of a tooltip's table. */
    private static final class Tips {
        final StringBuilder b = new StringBuilder(256);

        Tips line(String label, String value) {
            b.append("<tr><th>").append(label).append("</th><td>").append(value).append("</td></tr>");
            return this;
        }

        /** A value and its share of the sum of {@code of}'s values. */
        Tips pct(String label, StatRow r, StatField value, StatField... of) {
            long total = 0;
            for (StatField f : of) {
                total += longOf(r, f);
            }
            long v = longOf(r, value);
            b.append("<tr><th>").append(label).append("</th><td>").append(num(r, value)).append("</td><td>(")
                    .append(total == 0 ? 0 : v * 100 / total).append("%)</td></tr>");
            return this;
        }

        Tips ms(String label, StatRow r, StatField max, StatField avg) {
            b.append("<tr><th>").append(label).append("</th><td>").append(num(r, max)).append(" / ").append(num(r, avg))
                    .append("</td><td>ms</td></tr>");
            return this;
        }

        Tips raw(String html) {
            b.append(html);
            return this;
        }
    }
}
