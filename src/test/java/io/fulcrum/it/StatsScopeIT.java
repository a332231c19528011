package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the stats page and the Prometheus exporter leave out when asked: the version ({@code stats hide-version}), the
 * proxies outside {@code stats scope}, and the exporter's {@code scope} and {@code no-maint} query parameters (a scope
 * HAProxy 2.6 does not know is answered 400). Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StatsScopeIT {

    /** "fe" shows its page with {@code stats} lines {@code page}; "open" shows its page with the defaults; both export metrics. */
    private static String config(int fe, int open, int be, String page) {
        return """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /stats
                %s
                    http-request use-service prometheus-exporter if { path /metrics }
                    default_backend be
                frontend open
                    bind 127.0.0.1:%d
                    stats enable
                    stats uri /stats
                backend be
                    server s1 127.0.0.1:%d
                    server s2 127.0.0.1:%4$d disabled
                backend other
                    server o1 127.0.0.1:%4$d
                """.formatted(fe, page.indent(4), open, be);
    }

    private static String body(int port, String path) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            HttpClientConn.Response r = c.exchange(get(path));
            assertThat(r.status()).as(path).isEqualTo(200);
            return r.bodyText();
        }
    }

    private static String product() {
        return HttpKit.haproxy() ? "HAProxy" : "Fulcrum";
    }

    /** The title line names the product alone; the page that does not hide it gives its version and release date. */
    @Test
    void hideVersionAndScope() throws Exception {
        int fe = freePort();
        int open = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(config(fe, open, origin.port(), "stats hide-version\nstats scope be\nstats scope ."), fe)) {
            TcpProxyKit.awaitListening(proxy, TcpProxyKit.LOCALHOST, open, java.time.Duration.ofSeconds(20));
            String hidden = body(fe, "/stats");
            assertThat(h1(hidden)).isEqualTo(product());
            assertThat(hidden).doesNotContain("released");
            assertThat(h1(body(open, "/stats"))).matches(product() + " version \\S+, released \\d{4}/\\d{2}/\\d{2}");
            // "." is the proxy serving the page
            assertThat(anchors(hidden)).containsExactly("fe", "fe/Frontend", "be", "be/s1", "be/s2", "be/Backend");
            java.util.Map<String, java.util.Map<String, String>> csv = StatsIT.rows(body(fe, "/stats;csv"));
            assertThat(csv.keySet()).containsExactly("fe/FRONTEND", "be/s1", "be/s2", "be/BACKEND");
            // without stats show-legends, no address nor algorithm
            assertThat(csv.get("be/s1")).containsEntry("addr", "");
            assertThat(csv.get("be/BACKEND")).containsEntry("algo", "");
            assertThat(anchors(body(open, "/stats"))).contains("other/o1", "open/Frontend");
        }
    }

    /** The text of the page's h1 title, without its link. */
    private static String h1(String page) {
        Matcher m = Pattern.compile("<h1>(?:<a [^>]*>)?([^<]*)(?:</a>)?</h1>").matcher(page);
        assertThat(m.find()).as("an h1 in the page").isTrue();
        return m.group(1);
    }

    /** The names of the page's rows: "proxy" for each table, "proxy/server" for each row, in order. */
    private static List<String> anchors(String page) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("<a name=\"([^\"]+)\"").matcher(page);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /**
     * {@code scope} picks the families (global: the process's), several add up, an empty one clears those before it;
     * {@code no-maint}, with a value or not, leaves out the servers in maintenance; the words are URL-decoded.
     */
    @Test
    void exporterScopesAndNoMaint() throws Exception {
        int fe = freePort();
        int open = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(config(fe, open, origin.port(), ""), fe)) {
            assertThat(prefixes(body(fe, "/metrics?scope=global"))).containsExactly("haproxy_process");
            assertThat(prefixes(body(fe, "/metrics?scope=frontend&scope=backend"))).containsExactly("haproxy_backend", "haproxy_frontend");
            assertThat(prefixes(body(fe, "/metrics?scope=%67lobal&"))).containsExactly("haproxy_process");
            assertThat(prefixes(body(fe, "/metrics?scope=*"))).containsExactly("haproxy_backend", "haproxy_frontend", "haproxy_process",
                    "haproxy_server");
            assertThat(body(fe, "/metrics?scope=*&scope=")).isEmpty();
            assertThat(body(fe, "/metrics?scope=listener")).isEmpty(); // no listener with its own counters
            String up = "haproxy_server_status{proxy=\"be\",server=\"s1\",state=\"UP\"} 1";
            String maint = "haproxy_server_status{proxy=\"be\",server=\"s2\",state=\"MAINT\"} 1";
            assertThat(body(fe, "/metrics?scope=server").lines()).contains(up, maint);
            for (String q : List.of("/metrics?scope=server&no-maint", "/metrics?no-maint=1&scope=server", "/metrics?no%2dmaint&scope=server")) {
                String m = body(fe, q);
                assertThat(m.lines()).as(q).contains(up).noneMatch(l -> l.contains("server=\"s2\""));
            }
            for (String bad : List.of("/metrics?scope=be", "/metrics?scope", "/metrics?scope=Global", "/metrics?scope=global;x")) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    HttpClientConn.Response r = c.exchange(get(bad));
                    assertThat(r.status()).as(bad).isEqualTo(400);
                    assertThat(r.bodyText()).as(bad).isEqualTo("<html><body><h1>400 Bad request</h1>\nYour browser sent an invalid request.\n"
                            + "</body></html>\n");
                }
            }
        }
    }

    /** The families' prefixes ("haproxy_process"...), sorted, without Fulcrum's histograms' own. */
    private static List<String> prefixes(String metrics) {
        return metrics.lines().filter(l -> l.startsWith("# TYPE ") && !l.endsWith(" histogram"))
                .map(l -> l.substring(7, l.indexOf('_', l.indexOf('_') + 1))).distinct().sorted().toList();
    }
}
