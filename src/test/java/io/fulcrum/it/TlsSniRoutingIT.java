package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS routed by name without being terminated (mode tcp): content rules wait for the ClientHello
 * ({@code req.ssl_hello_type 1}) and {@code use_backend} reads its server name ({@code req.ssl_sni}) and ALPN; a real
 * JDK client reaches one of two real TLS servers and sees that server's certificate. Also runs against HAProxy 2.6
 * (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsSniRoutingIT {
    @TempDir
    Path dir;

    private static String config(int fe, int a, int b) {
        return """
                defaults
                    mode tcp
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    tcp-request inspect-delay 5s
                    tcp-request content accept if { req.ssl_hello_type 1 }
                    tcp-request content reject
                    use_backend be_b if { req.ssl_sni -m end .b.example.com } || { req.ssl_alpn b-proto }
                    use_backend be_a if { req.ssl_sni -m end .example.com }
                backend be_a
                    server a 127.0.0.1:%d
                backend be_b
                    server b 127.0.0.1:%d
                """.formatted(fe, a, b);
    }

    /** The name of the server reached: its certificate's and its answer's. */
    private static String reach(int port, String sni, String... alpn) throws Exception {
        try (SSLSocket s = TlsKit.connect(port, sni, null, alpn)) {
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            assertThat(TlsKit.serverName(s)).isEqualTo(answer);
            return answer;
        }
    }

    @Test
    void routesByTheServerNameOfTheClientHello() throws Exception {
        int fe = freePort();
        try (TlsOrigin a = TlsOrigin.selfSigned(dir, "a.example.com"); TlsOrigin b = TlsOrigin.selfSigned(dir, "x.b.example.com");
             FulcrumProcess proxy = serve(config(fe, a.port(), b.port()), fe)) {
            assertThat(reach(fe, "www.example.com")).isEqualTo("a.example.com");
            assertThat(reach(fe, "x.b.example.com")).isEqualTo("x.b.example.com");
            assertThat(reach(fe, "www.example.com", "b-proto", "http/1.1")).isEqualTo("x.b.example.com");
            // No backend chosen and none by default: the connection is closed. (The name is matched as sent: "-m end"
            // is case-sensitive without -i.)
            assertThatThrownBy(() -> reach(fe, "other.test")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> reach(fe, "WWW.EXAMPLE.COM")).isInstanceOf(IOException.class);
            // Bytes that are no ClientHello are rejected at once.
            try (Socket s = new Socket("127.0.0.1", fe)) {
                s.setSoTimeout(3000);
                s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(s.getInputStream().read()).isEqualTo(-1);
            }
        }
    }
}
