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

    /** Attributes the JDK has no keyword for are printed with OpenSSL's short names (they came out as "2.5.4.5=[B@..."). */
    @Test
    void namesWithOpenSslKeywords() {
        javax.security.auth.x500.X500Principal dn = new javax.security.auth.x500.X500Principal(
                "CN=Root, OID.2.5.4.97=VATES-Q2826004J, OID.2.5.4.5=G63287510, O=ANF, C=ES");
        assertThat(CertFetches.oneLine(dn)).isEqualTo("/C=ES/O=ANF/serialNumber=G63287510/organizationIdentifier=VATES-Q2826004J/CN=Root");
    }

    private static String time(String iso) {
        Sample s = new Sample();
        return CertFetches.time(Date.from(Instant.parse(iso)), s) ? s.asText() : null;
    }
}
