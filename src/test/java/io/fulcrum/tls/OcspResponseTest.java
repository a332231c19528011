package io.fulcrum.tls;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * OCSP responses: HAProxy's checks (status, one single response, good or revoked, a next update, valid now) and the
 * text of {@code show ssl ocsp-response <id>}, against a response built by hand (a responder known by its key, a
 * revoked certificate with a reason, a nonce) whose expected text is what {@code openssl ocsp -respin -text} prints.
 */
class OcspResponseTest {
    /** CertID: sha1, name hash 11.., key hash 22.., serial 100A. */
    private static final String CERT_ID = "303b300906052b0e03021a050004141111111111111111111111111111111111111111"
            + "041422222222222222222222222222222222222222220202100a";
    private static final String RESPONSE = "308201100a0100a08201093082010506092b06010505073001010481f73081f43081cba2160414"
            + "3333333333333333333333333333333333333333180f32303236313133303132303030305a307b3079" + CERT_ID
            + "a116180f32303236313130313030303030305aa0030a0101180f32303236313133303132303030305aa011180f32303236313230373132303030305a"
            + "a1233021301f06092b060105050730010204120410000102030405060708090a0b0c0d0e0f300d06092a864886f70d01010b0500031500"
            + "abababababababababababababababababababab";

    private static OcspResponse response(String hex) throws Exception {
        return OcspResponse.parse(HexFormat.of().parseHex(hex));
    }

    @Test
    void printedAsOpenSslDoes() throws Exception {
        assertThat(response(RESPONSE).describe()).isEqualTo("""
                OCSP Response Data:
                    OCSP Response Status: successful (0x0)
                    Response Type: Basic OCSP Response
                    Version: 1 (0x0)
                    Responder Id: 3333333333333333333333333333333333333333
                    Produced At: Nov 30 12:00:00 2026 GMT
                    Responses:
                    Certificate ID:
                      Hash Algorithm: sha1
                      Issuer Name Hash: 1111111111111111111111111111111111111111
                      Issuer Key Hash: 2222222222222222222222222222222222222222
                      Serial Number: 100A
                    Cert Status: revoked
                    Revocation Time: Nov  1 00:00:00 2026 GMT
                    Revocation Reason: keyCompromise (0x1)
                    This Update: Nov 30 12:00:00 2026 GMT
                    Next Update: Dec  7 12:00:00 2026 GMT

                    Response Extensions:
                        OCSP Nonce:\s
                            0410000102030405060708090A0B0C0D0E0F
                    Signature Algorithm: sha256WithRSAEncryption
                    Signature Value:
                        ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:ab:
                        ab:ab
                """);
    }

    @Test
    void validBetweenItsUpdatesWithFiveMinutesOfSkew() throws Exception {
        OcspResponse r = response(RESPONSE);
        assertThat(HexFormat.of().formatHex(r.check(Instant.parse("2026-12-01T00:00:00Z")))).isEqualTo(CERT_ID);
        assertThat(r.check(Instant.parse("2026-11-30T11:56:00Z"))).isNotNull();
        assertThat(r.check(Instant.parse("2026-12-07T12:04:00Z"))).isNotNull();
        assertThatThrownBy(() -> r.check(Instant.parse("2026-11-30T11:54:00Z"))).hasMessage("OCSP single response: no longer valid");
        assertThatThrownBy(() -> r.check(Instant.parse("2026-12-07T12:06:00Z"))).hasMessage("OCSP single response: no longer valid");
    }

    @Test
    void refusedAsHaproxyRefusesThem() {
        assertThatThrownBy(() -> response("0a0100")).hasMessage("Unable to parse OCSP response");
        assertThatThrownBy(() -> response(RESPONSE + "00")).hasMessage("Unable to parse OCSP response");
        assertThatThrownBy(() -> response("30030a0101").check(Instant.now())).hasMessage("OCSP response status not successful");
        // Another response type than the basic one.
        assertThatThrownBy(() -> response("30130a0100a00e300c06082b060105050730ff0400").check(Instant.now()))
                .hasMessage("Failed to get basic response from OCSP Response");
    }

    @Test
    void anErrorStatusIsPrintedAlone() throws Exception {
        assertThat(response("30030a0103").describe()).isEqualTo("OCSP Response Data:\n    OCSP Response Status: trylater (0x3)\n");
    }
}
