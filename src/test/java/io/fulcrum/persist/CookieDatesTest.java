package io.fulcrum.persist;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The 30-bit base64 dates of persistence cookies (HAProxy's s30tob64/b64tos30). */
class CookieDatesTest {

    private static String encode(long v) {
        StringBuilder b = new StringBuilder();
        CookieDates.append(b, v);
        return b.toString();
    }

    @Test
    void mostSignificantFirstWithoutPadding() {
        assertThat(encode(0)).isEqualTo("AAAAA");
        assertThat(encode(1)).isEqualTo("AAAAB");
        assertThat(encode(63)).isEqualTo("AAAA/");
        assertThat(encode(64)).isEqualTo("AAABA");
        // the last-seen date HAProxy 2.6 wrote in a cookie on 30 Nov 2026 at 09:49:28 UTC (4-second units)
        assertThat(encode(1796032168L >> 2)).isEqualTo("aw1Gq");
    }

    @Test
    void decodesWhatItEncodesAndRefusesOtherCharacters() {
        for (long v : new long[] {0, 1, 12345, (1L << 30) - 1}) {
            assertThat(CookieDates.decode(encode(v), 0)).isEqualTo(v);
        }
        assertThat(CookieDates.decode("xAAAA=", 1)).isEqualTo(-1);
        assertThat(CookieDates.decode("AA-AA", 0)).isEqualTo(-1);
    }
}
