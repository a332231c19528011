package io.fulcrum.tls;

import io.fulcrum.sample.Sample;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Date;

import static org.assertj.core.api.Assertions.assertThat;

class CertFetchesTest {

    /** haproxy 2.6 on client1.pem of its reg-tests (notAfter a GeneralizedTime, 20500421185942Z): 500421185942Z. */
    @Test
    void validityIsPrintedWithoutTheCentury() {
        assertThat(time("2020-04-28T18:59:42Z")).isEqualTo("200428185942Z");
        assertThat(time("2050-04-21T18:59:42Z")).isEqualTo("500421185942Z");
        assertThat(time("1949-12-31T23:59:59Z")).isNull();
        assertThat(time("2100-01-01T00:00:00Z")).isNull();
    }

    private static String time(String iso) {
        Sample s = new Sample();
        return CertFetches.time(Date.from(Instant.parse(iso)), s) ? s.asText() : null;
    }
}
