package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS termination on bind lines ({@code ssl crt}): certificates chosen by SNI, ALPN, versions and ciphers, the
 * {@code ssl_fc*} fetches, mode tcp, and the log line of a failed handshake, with JDK, curl and openssl clients.
 * Runs against HAProxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsFrontendIT {
    /** What the proxy's answers tell of the connection. */
    static final String FETCHES = "http-request return status 200 content-type text/plain lf-string "
            + "\"fc=%[ssl_fc] sni=%[ssl_fc_sni] hassni=%[ssl_fc_has_sni] v=%[ssl_fc_protocol] c=%[ssl_fc_cipher] alpn=%[ssl_fc_alpn]"
            + " ks=%[ssl_fc_use_keysize]/%[ssl_fc_alg_keysize] resumed=%[ssl_fc_is_resumed]\"";

    @TempDir
    Path dir;

    @BeforeEach
    void certificates() throws Exception {
        TlsKit.selfSigned(dir, "a", "a.example.com", "*.b.example.com");
        TlsKit.selfSigned(dir, "other", "other.test");
    }

    private String config(int port, String bindOptions, String... lines) {
        return "global\n    ssl-default-bind-options ssl-min-ver TLSv1.2\n"
                + "defaults\n    mode http\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                + "frontend f\n    bind 127.0.0.1:" + port + " ssl " + bindOptions + "\n    " + String.join("\n    ", lines) + "\n";
    }

    private String crts() {
        return "crt " + dir.resolve("a.pem") + " crt " + dir.resolve("other.pem");
    }

    /**
     * http-request wait-for-handshake: the request is handled once the handshake is done, which without early data
     * (Fulcrum never takes any, even with allow-0rtt) it always is: the action is accepted and lets the request on.
     */
    @Test
    void waitForHandshake() throws Exception {
        int port = freePort();
        String cfg = config(port, crts() + " allow-0rtt", "http-request wait-for-handshake",
                "http-request return status 200 content-type text/plain lf-string \"v=%[ssl_fc_protocol] sni=%[ssl_fc_sni]\"");
        try (FulcrumProcess p = serve(cfg, port)) {
            assertThat(TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "--resolve", "a.example.com:" + port + ":127.0.0.1",
                    "https://a.example.com:" + port + "/")).isEqualTo("v=TLSv1.3 sni=a.example.com");
            try (SSLSocket s = TlsKit.connect(port, "other.test", new String[] {"TLSv1.2"})) {
                assertThat(TlsKit.get(s, "/")).startsWith("HTTP/1.1 200").endsWith("v=TLSv1.2 sni=other.test");
            }
        }
    }

    @Test
    void httpClientGetsAnswersOverTls13() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, crts(), FETCHES), port)) {
            HttpClient http = HttpClient.newBuilder().sslContext(TlsKit.trustAll()).version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            // An IP address is never sent as SNI.
            assertThat(r.body()).startsWith("fc=1 sni= hassni=0 v=TLSv1.3 c=TLS_").contains(" resumed=0");
        }
    }

    @Test
    void sniChoosesTheCertificateByItsNames() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, crts(), FETCHES), port)) {
            assertThat(presented(port, "other.test")).isEqualTo("other.test");
            assertThat(presented(port, "OTHER.test")).isEqualTo("other.test");
            assertThat(presented(port, "a.example.com")).isEqualTo("a.example.com");
            assertThat(presented(port, "x.b.example.com")).isEqualTo("a.example.com"); // wildcard SAN
            assertThat(presented(port, "y.x.b.example.com")).isEqualTo("a.example.com"); // no match: the default
            assertThat(presented(port, "unknown.test")).isEqualTo("a.example.com");
            assertThat(presented(port, null)).isEqualTo("a.example.com");
            try (SSLSocket s = TlsKit.connect(port, "other.test", null)) {
                assertThat(TlsKit.get(s, "/")).contains("sni=other.test hassni=1 ");
            }
            try (SSLSocket s = TlsKit.connect(port, "OTHER.Test", null)) {
                assertThat(TlsKit.get(s, "/")).as("the name as the client wrote it").contains("sni=OTHER.Test hassni=1 ");
            }
        }
    }

    /**
     * A crt-list line's versions hold when SNI chose the line; as the default certificate (no name, or none that a
     * line names) its certificate has the bind line's, its other options still holding, as in HAProxy.
     */
    @Test
    void crtListVersionsHoldWhenSniChoseTheLine() throws Exception {
        Path list = Files.writeString(dir.resolve("list.txt"), dir.resolve("a.pem") + " [ssl-min-ver TLSv1.3 alpn http/1.1]\n"
                + dir.resolve("other.pem") + "\n");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "crt-list " + list, FETCHES), port)) {
            String[] tls12 = {"TLSv1.2"};
            assertThatThrownBy(() -> TlsKit.connect(port, "a.example.com", tls12).close()).isInstanceOf(SSLException.class);
            for (String sni : new String[] {null, "unknown.test"}) {
                try (SSLSocket s = TlsKit.connect(port, sni, tls12, "http/1.1")) {
                    assertThat(TlsKit.serverName(s)).as("the default certificate").isEqualTo("a.example.com");
                    assertThat(TlsKit.get(s, "/")).as(String.valueOf(sni)).contains(" v=TLSv1.2 ").contains(" alpn=http/1.1 ");
                }
            }
            try (SSLSocket s = TlsKit.connect(port, "other.test", tls12)) {
                assertThat(TlsKit.get(s, "/")).contains(" v=TLSv1.2 ");
            }
        }
    }

    /** Without ciphers, TLS 1.2 offers and prefers OpenSSL 3's DEFAULT list, as HAProxy on OpenSSL 3. */
    @Test
    void defaultCiphersAreOpenSsls() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, crts(), FETCHES), port)) {
            try (SSLSocket s = TlsKit.connect(port, "a.example.com", new String[] {"TLSv1.2"})) {
                assertThat(TlsKit.get(s, "/")).as("AES-256-GCM first").contains(" c=ECDHE-RSA-AES256-GCM-SHA384 ");
            }
            for (String cipher : new String[] {"ECDHE-RSA-CHACHA20-POLY1305", "ECDHE-RSA-AES256-SHA", "AES256-GCM-SHA384"}) {
                String curl = TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "--tls-max", "1.2", "--ciphers", cipher,
                        "https://127.0.0.1:" + port + "/");
                assertThat(curl).as(cipher).contains(" c=" + cipher + " ");
            }
        }
    }

    private String presented(int port, String sni) throws IOException {
        try (SSLSocket s = TlsKit.connect(port, sni, null)) {
            return TlsKit.serverName(s);
        }
    }

    @Test
    void strictSniRefusesUnknownNames() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, crts() + " strict-sni", FETCHES), port)) {
            assertThat(presented(port, "other.test")).isEqualTo("other.test");
            assertThatThrownBy(() -> presented(port, "unknown.test")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> presented(port, null)).isInstanceOf(IOException.class);
        }
    }

    @Test
    void directoryOfCertificates() throws Exception {
        Path certs = Files.createDirectory(dir.resolve("certs"));
        Files.copy(dir.resolve("other.pem"), certs.resolve("1-other.pem"));
        // The key beside its certificate: the .key file is not taken for a certificate.
        Files.copy(dir.resolve("a.crt"), certs.resolve("2-a.pem"));
        Files.copy(dir.resolve("a.key"), certs.resolve("2-a.pem.key"));
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "crt " + certs, FETCHES), port)) {
            assertThat(presented(port, null)).isEqualTo("other.test"); // the first file is the default
            assertThat(presented(port, "a.example.com")).isEqualTo("a.example.com");
        }
    }

    @Test
    void alpnVersionsAndCiphers() throws Exception {
        int port = freePort();
        String options = crts() + " alpn http/1.1 ssl-max-ver TLSv1.2 ciphers ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384";
        try (FulcrumProcess p = serve(config(port, options, FETCHES), port)) {
            try (SSLSocket s = TlsKit.connect(port, "a.example.com", new String[] {"TLSv1.2", "TLSv1.3"}, "h2", "http/1.1")) {
                assertThat(s.getApplicationProtocol()).isEqualTo("http/1.1");
                assertThat(TlsKit.get(s, "/")).contains("v=TLSv1.2 c=ECDHE-RSA-AES").contains(" alpn=http/1.1 ")
                        .containsPattern("ks=(128/128|256/256) ");
            }
            assertThatThrownBy(() -> TlsKit.connect(port, "a.example.com", new String[] {"TLSv1.3"}).close())
                    .isInstanceOf(SSLException.class);
            // curl asking for the one cipher that is not allowed
            String curl = TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "--tls-max", "1.2", "--ciphers",
                    "ECDHE-RSA-CHACHA20-POLY1305", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:" + port + "/");
            assertThat(curl).isEqualTo("000");
            curl = TlsKit.run(dir, "", "curl", "-sk", "--max-time", "10", "--ciphers", "ECDHE-RSA-AES128-GCM-SHA256",
                    "https://127.0.0.1:" + port + "/");
            assertThat(curl).contains("c=ECDHE-RSA-AES128-GCM-SHA256 ").contains("ks=128/128");
        }
    }

    /** openssl s_client coming back with the session it saved: the server resumes it (session cache or ticket). */
    @Test
    void sessionsAreResumed() throws Exception {
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, crts(), FETCHES), port)) {
            for (String v : new String[] {"-tls1_2", "-tls1_3"}) {
                String first = sClient(port, v, "-sess_out", "sess" + v);
                assertThat(first).as(v).contains("New, TLSv1.").contains("resumed=0");
                String again = sClient(port, v, "-sess_in", "sess" + v);
                assertThat(again).as(v).contains("Reused, TLSv1." + v.charAt(v.length() - 1)).contains("resumed=1");
            }
        }
    }

    /** An HTTP/1.0 request through openssl s_client, which reads until the server closes. */
    private String sClient(int port, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("openssl", "s_client", "-ign_eof",
                "-connect", "127.0.0.1:" + port, "-servername", "other.test"));
        cmd.addAll(java.util.List.of(args));
        return TlsKit.run(dir, "GET / HTTP/1.0\r\n\r\n", cmd.toArray(String[]::new));
    }

    @Test
    void tcpModeTerminatesTls() throws Exception {
        int port = freePort();
        try (Origin origin = Origin.start(Origin.ECHO)) {
            String cfg = "defaults\n    mode tcp\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                    + "listen t\n    bind 127.0.0.1:" + port + " ssl " + crts() + " alpn x-test\n"
                    + "    tcp-request content reject unless { ssl_fc_alpn x-test }\n    server s 127.0.0.1:" + origin.port() + "\n";
            try (FulcrumProcess p = serve(cfg, port);
                 SSLSocket s = TlsKit.connect(port, "other.test", null, "x-test")) {
                s.getOutputStream().write("ping\n".getBytes(StandardCharsets.US_ASCII));
                byte[] back = s.getInputStream().readNBytes(5);
                assertThat(new String(back, StandardCharsets.US_ASCII)).isEqualTo("ping\n");
            }
        }
    }

    /** accept-proxy then TLS: the handshake starts right after the PROXY header, in the same segment even. */
    @Test
    void proxyHeaderBeforeTheHandshake() throws Exception {
        int port = freePort();
        String cfg = config(port, crts() + " accept-proxy", "http-request return status 200 content-type text/plain"
                + " lf-string \"src=%[src] sni=%[ssl_fc_sni]\"");
        try (FulcrumProcess p = serve(cfg, port);
             java.net.Socket raw = new java.net.Socket("127.0.0.1", port)) {
            raw.getOutputStream().write("PROXY TCP4 192.0.2.7 127.0.0.1 4000 443\r\n".getBytes(StandardCharsets.US_ASCII));
            javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) TlsKit.trustAll().getSocketFactory()
                    .createSocket(raw, "other.test", port, true);
            s.setSoTimeout(10_000);
            assertThat(TlsKit.get(s, "/")).endsWith("src=192.0.2.7 sni=other.test");
        }
    }

    /** Garbage instead of a ClientHello: the connection is closed and logged as HAProxy logs it. */
    @Test
    void failedHandshakeIsLogged() throws Exception {
        int port = freePort();
        String cfg = config(port, crts(), FETCHES).replace("frontend f\n", "frontend f\n    log stdout format raw local0\n");
        try (FulcrumProcess p = serve(cfg, port);
             java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.setSoTimeout(5000);
            assertThat(s.getInputStream().readAllBytes()).isEmpty();
            long end = System.currentTimeMillis() + 5000;
            while (!p.stdout().contains("SSL handshake failure") && System.currentTimeMillis() < end) {
                Thread.sleep(50);
            }
            assertThat(p.stdout()).containsPattern("127\\.0\\.0\\.1:\\d+ \\[\\d\\d/\\w+/\\d{4}:[\\d:.]+\\] f/1: SSL handshake failure");
        }
    }
}
