package io.fulcrum.tls;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;

import static org.assertj.core.api.Assertions.assertThat;

/** BoringSSL's errors renamed as OpenSSL 3's, the codes and texts HAProxy 2.6 logs (checked against haproxy). */
class HandshakeErrorTest {
    @Test
    void boringSslReasonsGetOpenSslsCodes() {
        HandshakeError e = HandshakeError.of(new SSLHandshakeException("error:100000b8:SSL routines:OPENSSL_internal:NO_SHARED_CIPHER"));
        assertThat(e).isEqualTo(new HandshakeError(167772353, "error:0A0000C1:SSL routines::no shared cipher"));
        assertThat(HandshakeError.of(new RuntimeException("wrapped",
                new SSLHandshakeException("error:100000c7:SSL routines:OPENSSL_internal:PEER_DID_NOT_RETURN_A_CERTIFICATE"))))
                .isEqualTo(new HandshakeError(167772359, "error:0A0000C7:SSL routines::peer did not return a certificate"));
    }

    @Test
    void aReasonOpenSslDoesNotHaveKeepsBoringSslsCode() {
        assertThat(HandshakeError.of(new SSLHandshakeException("error:1000012e:SSL routines:OPENSSL_internal:SOME_BORINGSSL_THING")))
                .isEqualTo(new HandshakeError(0x1000012eL, "error:1000012E:SSL routines::some boringssl thing"));
    }

    @Test
    void whatIsNotTlsIsNamedByItsFirstBytes() {
        assertThat(HandshakeError.notTls("GET /").text()).isEqualTo("error:0A00009C:SSL routines::http request");
        assertThat(HandshakeError.notTls("CONNE").text()).isEqualTo("error:0A00009B:SSL routines::https proxy request");
        assertThat(HandshakeError.notTls("\u0000\u0001").code()).isEqualTo(0x0A00010BL);
    }

    @Test
    void noLibraryErrorIsNone() {
        assertThat(HandshakeError.of(new java.nio.channels.ClosedChannelException())).isEqualTo(HandshakeError.NONE);
    }
}
