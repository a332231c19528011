package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The exporter's query parameters as haproxy 2.6 read them (answers observed on it, StatsScopeIT runs them against it). */
class PrometheusQueryTest {
    private static final Set<String> ALL = Set.of("process", "frontend", "backend", "server");

    @Test
    void scopesAddUpAndAnEmptyOneClears() {
        assertThat(PrometheusExporter.Query.of("/metrics").scopes()).isEqualTo(ALL);
        assertThat(PrometheusExporter.Query.of("/metrics?scope=global").scopes()).containsExactly("process");
        assertThat(PrometheusExporter.Query.of("/metrics?scope=frontend&scope=server").scopes()).containsExactlyInAnyOrder("frontend", "server");
        assertThat(PrometheusExporter.Query.of("/metrics?scope=*").scopes()).isEqualTo(ALL);
        assertThat(PrometheusExporter.Query.of("/metrics?scope=*&scope=").scopes()).isEmpty();
        assertThat(PrometheusExporter.Query.of("/metrics?scope=&scope=backend").scopes()).containsExactly("backend");
        assertThat(PrometheusExporter.Query.of("/metrics?scope=listener&scope=sticktable").scopes()).isEmpty();
        assertThat(PrometheusExporter.Query.of("/metrics?&&scope=%67lobal&").scopes()).containsExactly("process");
        assertThat(PrometheusExporter.Query.of("/metrics?other=1").scopes()).isEqualTo(ALL);
    }

    @Test
    void noMaintWithAValueOrNot() {
        assertThat(PrometheusExporter.Query.of("/metrics").noMaint()).isFalse();
        assertThat(PrometheusExporter.Query.of("/metrics?no-maint").noMaint()).isTrue();
        assertThat(PrometheusExporter.Query.of("/metrics?no-maint=0").noMaint()).isTrue();
        assertThat(PrometheusExporter.Query.of("/metrics?no%2Dmaint").noMaint()).isTrue();
        assertThat(PrometheusExporter.Query.of("/metrics?no-maintx").noMaint()).isFalse();
    }

    /** What haproxy answers 400. */
    @Test
    void unknownScopesScopeWithoutValueAndBadEscapesAreRefused() {
        for (String uri : new String[] {"/metrics?scope=be", "/metrics?scope", "/metrics?scope=Global", "/metrics?scope=global;x",
                "/metrics?scope=%zz", "/metrics?scope=glob%6"}) {
            assertThat(PrometheusExporter.Query.of(uri)).as(uri).isNull();
        }
    }
}
