package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health checks over TLS ({@code check-ssl}, {@code check-sni}, {@code check-alpn}, {@code http-check connect ssl},
 * and the checks of {@code ssl} servers) against a real TLS server that tells which name and protocols it was
 * offered and what request it got. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckTlsIT {

    /** One handshake as the server saw it, and the first bytes sent over it. */
    record Seen(String sni, List<String> alpn, String data) {
    }

    /** A TLS server on a free port answering each connection with {@code answer} after the first bytes it reads. */
    private static final class TlsOrigin implements AutoCloseable {
        final SSLServerSocket socket;
        final LinkedBlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        private final Thread acceptor;

        TlsOrigin(SSLContext ctx, String answer) throws Exception {
            socket = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            acceptor = Thread.ofPlatform().daemon().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        SSLSocket s = (SSLSocket) socket.accept();
                        Thread.ofVirtual().start(() -> handle(s, answer));
                    } catch (Exception e) {
                        return;
                    }
                }
            });
        }

        private void handle(SSLSocket s, String answer) {
            try (s) {
                List<String>[] offered = new List[] {List.of()};
                s.setHandshakeApplicationProtocolSelector((sock, protocols) -> {
                    offered[0] = protocols;
                    return protocols.contains("http/1.1") ? "http/1.1" : null;
                });
                s.setSoTimeout(2000);
                s.startHandshake();
                String sni = null;
                for (SNIServerName n : ((ExtendedSSLSession) s.getSession()).getRequestedServerNames()) {
                    sni = n instanceof SNIHostName h ? h.getAsciiName() : null;
                }
                String data = "";
                if (answer != null) {
                    byte[] b = new byte[4096];
                    InputStream in = s.getInputStream();
                    int n = in.read(b);
                    data = n < 0 ? "" : new String(b, 0, n, StandardCharsets.ISO_8859_1);
                    send(s, answer);
                }
                seen.add(new Seen(sni, offered[0], data));
            } catch (Exception e) {
                // a check that closed first: nothing to record
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            socket.close();
            acceptor.join(2000);
        }
    }

    private static SSLContext serverContext(Path dir) throws Exception {
        TlsKit.selfSigned(dir, "srv", "check.test");
        TlsKit.run(dir, "", "openssl", "pkcs12", "-export", "-in", "srv.pem", "-out", "srv.p12", "-passout", "pass:secret");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(dir.resolve("srv.p12"))) {
            ks.load(in, "secret".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "secret".toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    @Test
    void checksRunOverTlsWithTheirOwnNameAndProtocols(@TempDir Path dir) throws Exception {
        SSLContext ctx = serverContext(dir);
        try (TlsOrigin https = new TlsOrigin(ctx, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
             TlsOrigin plainCheck = new TlsOrigin(ctx, null);
             TlsOrigin ruleCheck = new TlsOrigin(ctx, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
             Origin clear = Origin.start(s -> {
                 s.getInputStream().read(new byte[512]);
                 send(s, "HTTP/1.0 400 Bad request\r\n\r\n");
             })) {
            int fe = freePort();
            String cfg = """
                    global
                        ssl-server-verify none
                    defaults
                        mode http
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                        option log-health-checks
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend web
                    backend web
                        option httpchk GET /health HTTP/1.1\\r\\nHost:\\ check.test
                        server s1 127.0.0.1:%d ssl check inter 1s rise 1 fall 1
                    backend l6
                        server s1 127.0.0.1:%d check check-ssl check-sni l6.check.test check-alpn h3,http/1.1 inter 1s rise 1 fall 1
                        server clear 127.0.0.1:%d check check-ssl inter 1s rise 1 fall 1
                    backend rule
                        option httpchk
                        http-check connect ssl sni rule.check.test alpn http/1.1
                        http-check send meth GET uri /rule ver HTTP/1.1 hdr host rule.check.test
                        http-check expect status 200
                        server s1 127.0.0.1:%d check inter 1s rise 1 fall 1
                    """.formatted(fe, https.port(), plainCheck.port(), clear.port(), ruleCheck.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                Seen web = https.seen.poll(60, TimeUnit.SECONDS);
                assertThat(web).as("the ssl server's check").isNotNull();
                assertThat(web.data()).startsWith("GET /health HTTP/1.1\r\nhost: check.test\r\n");
                assertThat(web.sni()).as("checks do not send the server's sni").isNull();
                p.awaitStderr("Health check for server web/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ");

                Seen l6 = plainCheck.seen.poll(60, TimeUnit.SECONDS);
                assertThat(l6).isNotNull();
                assertThat(l6.sni()).isEqualTo("l6.check.test");
                assertThat(l6.alpn()).containsExactly("h3", "http/1.1");
                p.awaitStderr("Health check for server l6/s1 succeeded, reason: Layer6 check passed, check duration: ");
                p.awaitStderr("Health check for server l6/clear failed, reason: Layer6 invalid response, info: \"SSL handshake failure\", "
                        + "check duration: ");

                Seen rule = ruleCheck.seen.poll(60, TimeUnit.SECONDS);
                assertThat(rule).isNotNull();
                assertThat(rule.sni()).isEqualTo("rule.check.test");
                assertThat(rule.alpn()).containsExactly("http/1.1");
                assertThat(rule.data()).startsWith("GET /rule HTTP/1.1\r\nhost: rule.check.test\r\n");
                p.awaitStderr("Health check for server rule/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ");
            }
        }
    }
}
