package io.fulcrum.mux.h1;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How the global settings become parser limits, as HAProxy 2.6 derives its buffer sizes. */
class H1SettingsTest {

    private static H1Limits limits(int bufsize, int maxrewrite) {
        H1Settings t = new H1Settings();
        t.bufsize = bufsize;
        t.maxrewrite = maxrewrite;
        return t.limits();
    }

    @Test
    void defaultsAreHaproxys() {
        assertThat(new H1Settings().limits()).isEqualTo(H1Limits.DEFAULT);
    }

    @Test
    void maxrewriteDefaultsTo1024AndIsCutToHalfTheBuffer() {
        assertThat(limits(16384, -1).maxrewrite()).isEqualTo(1024);
        assertThat(limits(1008, -1).maxrewrite()).isEqualTo(504);
        assertThat(limits(16384, 15000).maxrewrite()).isEqualTo(8192);
        assertThat(limits(16384, 0).maxHead()).isEqualTo(16384);
        assertThat(limits(16, 100).maxHead()).isEqualTo(8);
    }
}
