package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code http-request use-service prometheus-exporter}: a scrape parses with a strict text-format parser,
 * the counts follow the traffic, the latency histograms (a Fulcrum extension) count every transaction, and,
 * where haproxy is installed, the same configuration and traffic give the same series as its exporter.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusIT {

    private record Scrape(HttpClientConn.Response response, String all, String frontendsOnly) {
    }

    private static Scrape scrape(boolean oracle) throws Exception {
        int fe = freePort();
        int li = freePort();
        try (HttpOrigin a = HttpOrigin.start(x -> x.reply(200, "a"))) {
            String config = """
                    defaults
                        mode http
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        bind 127.0.0.1:%d
                        http-request use-service prometheus-exporter if { path /metrics }
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d
                        server s2 127.0.0.1:%d disabled
                    listen li
                        mode tcp
                        bind 127.0.0.1:%d
                        server t1 127.0.0.1:%d
                    backend empty
                    backend checked
                        server c1 127.0.0.1:%d check inter 200
                    """.formatted(fe, a.port(), a.port(), li, a.port(), FulcrumProcess.refusedPort());
            try (FulcrumProcess p = oracle ? oracle(config, fe) : TcpProxyKit.serve(config, fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                for (int i = 0; i < 5; i++) {
                    assertThat(c.exchange(get("/x")).status()).isEqualTo(200);
                }
                HttpClientConn.Response r = c.exchange(get("/metrics"));
                String frontends = c.exchange(get("/metrics?scope=frontend")).bodyText();
                return new Scrape(r, r.bodyText(), frontends);
            }
        }
    }

    private static FulcrumProcess oracle(String config, int port) throws Exception {
        Path file = FulcrumProcess.config(config);
        FulcrumProcess p = FulcrumProcess.start(List.of("/usr/sbin/haproxy"), List.of("-db", "-f", file.toString()));
        TcpProxyKit.awaitListening(p, "127.0.0.1", port, java.time.Duration.ofSeconds(20));
        return p;
    }

    @Test
    void aScrapeIsValidAndCountsTheTraffic() throws Exception {
        Scrape s = scrape(false);
        assertThat(s.response().status()).isEqualTo(200);
        assertThat(s.response().head().toString()).containsIgnoringCase("content-type: text/plain; version=0.0.4");
        PromText m = PromText.parse(s.all());
        assertThat(m.value("haproxy_frontend_http_requests_total", Map.of("proxy", "fe"))).isEqualTo(6); // this scrape counts
        assertThat(m.value("haproxy_backend_http_responses_total", Map.of("proxy", "be", "code", "2xx"))).isEqualTo(5);
        assertThat(m.value("haproxy_server_status", Map.of("proxy", "be", "server", "s1", "state", "UP"))).isEqualTo(1);
        assertThat(m.value("haproxy_server_status", Map.of("proxy", "be", "server", "s2", "state", "MAINT"))).isEqualTo(1);
        assertThat(m.value("haproxy_backend_agg_server_status", Map.of("proxy", "be", "state", "UP"))).isEqualTo(1);
        assertThat(m.value("haproxy_process_nbproc", Map.of())).isEqualTo(1);
        assertThat(m.families.get("haproxy_backend_total_time_seconds").type()).isEqualTo("histogram");
        assertThat(m.value("haproxy_backend_total_time_seconds_count", Map.of("proxy", "be"))).isEqualTo(5);
        assertThat(m.value("haproxy_server_response_time_seconds_count", Map.of("proxy", "be", "server", "s1"))).isEqualTo(5);
        // the HTTP families of a frontend are there, each with a series of the HTTP frontend "fe"
        assertThat(m.families.values()).filteredOn(f -> f.name().startsWith("haproxy_frontend_http")).hasSizeGreaterThan(5)
                .allMatch(f -> f.samples().stream().anyMatch(x -> "fe".equals(x.labels().get("proxy"))), "a series of fe");
        PromText fronts = PromText.parse(s.frontendsOnly());
        assertThat(fronts.families.keySet()).allMatch(n -> n.startsWith("haproxy_frontend_"));
    }

    /**
     * HAProxy's exporter gives the same families, in the same order, with the same series in the same order (values
     * aside): a code of the HTTP responses for every proxy before the next, an enabled check's code at layer 4 (0), no
     * aggregate of the servers of a backend without any, its downtime NaN.
     */
    @Test
    void theSeriesAreHaproxys() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/haproxy")), "haproxy not installed");
        PromText ours = PromText.parse(scrape(false).all());
        PromText theirs = PromText.parse(scrape(true).all());
        List<String> ourFamilies = ours.families.keySet().stream().filter(n -> !ours.families.get(n).type().equals("histogram")).toList();
        assertThat(ourFamilies).containsExactlyElementsOf(theirs.families.keySet());
        for (String f : theirs.families.keySet()) {
            assertThat(ours.families.get(f).type()).as(f).isEqualTo(theirs.families.get(f).type());
            assertThat(ours.families.get(f).help()).as(f).isEqualTo(theirs.families.get(f).help());
            assertThat(series(ours.families.get(f))).as(f).isEqualTo(series(theirs.families.get(f)));
        }
    }

    private static List<String> series(PromText.Family f) {
        List<String> s = new java.util.ArrayList<>();
        for (PromText.Sample x : f.samples()) {
            Map<String, String> labels = new java.util.TreeMap<>(x.labels());
            labels.computeIfPresent("version", (k, v) -> "*");
            s.add(x.name() + labels + (Double.isNaN(x.value()) ? " NaN" : ""));
        }
        return s;
    }
}
