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
 * {@code maxsslconn} (configuration.txt 3.2): the process's TLS connections, incoming and outgoing, are limited;
 * one more gets no handshake; {@code show info} tells MaxSslConns, CurrSslConns and CumSslConns. Runs against
 * HAProxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsMaxSslConnIT {
    @TempDir
    Path dir;

    private String info(Path admin) throws Exception {
        return CliClient.send(admin, "show info").lines().filter(l -> l.contains("SslConns")).reduce("", (a, b) -> a + b + "\n");
    }

    /** The CLI's SSL connection lines once CurrSslConns is {@code current} (a closed connection is seen a bit later). */
    private String infoAt(Path admin, int current) throws Exception {
        String info = info(admin);
        for (int i = 0; i < 100 && !info.contains("CurrSslConns: " + current + "\n"); i++) {
            Thread.sleep(50);
            info = info(admin);
        }
        return info;
    }

    @Test
    void incomingConnections() throws Exception {
        TlsKit.selfSigned(dir, "site", "site.test");
        Path admin = dir.resolve("admin.sock");
        int port = freePort();
        String cfg = """
                global
                    maxsslconn 2
                    stats socket %s level admin
                defaults
                    mode http
                    timeout client 30s
                frontend f
                    bind 127.0.0.1:%d ssl crt %s
                    http-request return status 200 content-type text/plain string ok
                """.formatted(admin, port, dir.resolve("site.pem"));
        try (FulcrumProcess p = serve(cfg, port)) {
            assertThat(info(admin)).isEqualTo("MaxSslConns: 2\nCurrSslConns: 0\nCumSslConns: 0\n");
            try (SSLSocket first = TlsKit.connect(port, "site.test", null); SSLSocket second = TlsKit.connect(port, "site.test", null)) {
                assertThat(info(admin)).isEqualTo("MaxSslConns: 2\nCurrSslConns: 2\nCumSslConns: 2\n");
                // One more gets no handshake: Fulcrum closes it, HAProxy 2.6 leaves it unanswered (10 s here).
                assertThatThrownBy(() -> TlsKit.connect(port, "site.test", null).close()).isInstanceOf(IOException.class);
                assertThat(TlsKit.get(first, "/")).startsWith("HTTP/1.1 200").endsWith("ok");
            }
            assertThat(infoAt(admin, 0)).isEqualTo("MaxSslConns: 2\nCurrSslConns: 0\nCumSslConns: 2\n");
            try (SSLSocket again = TlsKit.connect(port, "site.test", null)) {
                assertThat(TlsKit.get(again, "/")).startsWith("HTTP/1.1 200");
            }
            assertThat(infoAt(admin, 0)).isEqualTo("MaxSslConns: 2\nCurrSslConns: 0\nCumSslConns: 3\n");
        }
    }

    /** A connection deciphered then ciphered again takes two: with one, a TLS client cannot reach a TLS server. */
    @Test
    void bothSidesCount() throws Exception {
        TlsKit.selfSigned(dir, "front", "front.test");
        try (TlsOrigin origin = TlsOrigin.selfSigned(dir, "origin")) {
            for (int limit : new int[] {1, 2}) {
                int plain = freePort();
                int tls = freePort();
                Path admin = dir.resolve("admin" + limit + ".sock");
                String cfg = """
                        global
                            maxsslconn %d
                            stats socket %s level admin
                        defaults
                            mode tcp
                            timeout client 10s
                            timeout server 10s
                            timeout connect 2s
                            retries 0
                        listen plain
                            bind 127.0.0.1:%d
                            server o 127.0.0.1:%d ssl verify none
                        listen ciphered
                            bind 127.0.0.1:%d ssl crt %s
                            server o 127.0.0.1:%d ssl verify none
                        """.formatted(limit, admin, plain, origin.port(), tls, dir.resolve("front.pem"), origin.port());
                try (FulcrumProcess p = serve(cfg, plain)) {
                    try (Socket s = new Socket("127.0.0.1", plain)) {
                        s.setSoTimeout(10_000);
                        assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("origin\n");
                    }
                    assertThat(infoAt(admin, 0)).contains("CurrSslConns: 0\n"); // the server's connection was closed
                    try (SSLSocket s = TlsKit.connect(tls, "front.test", null)) {
                        assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).as("maxsslconn %d", limit)
                                .isEqualTo(limit == 1 ? "" : "origin\n");
                    }
                }
            }
        }
    }
}
