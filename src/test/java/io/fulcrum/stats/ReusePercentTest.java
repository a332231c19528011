package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** SslFrontendSessionReuse_pct: HAProxy's stats_fill_info() rounding, from the TLS connection and key rates. */
class ReusePercentTest {
    @Test
    void theShareOfConnectionsWithoutANewKey() {
        assertThat(ProcessInfo.reusePercent(0, 0)).isZero();
        assertThat(ProcessInfo.reusePercent(5, 0)).isEqualTo(100);
        assertThat(ProcessInfo.reusePercent(3, 2)).isEqualTo(33); // 100 - (200 + 1) / 3
        assertThat(ProcessInfo.reusePercent(3, 1)).isEqualTo(67); // 100 - (100 + 1) / 3
        assertThat(ProcessInfo.reusePercent(1, 1)).isZero();
        assertThat(ProcessInfo.reusePercent(1, 4)).isZero(); // more keys than connections
    }
}
