package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS to servers ({@code server ... ssl}) against nginx serving TLS: certificate verification with a CA file and the
 * SNI name, the name sent, a client certificate, session reuse across connections (and {@code no-ssl-reuse}), the
 * {@code ssl_bc*} fetches, mode tcp. Runs against HAProxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsServerIT {
    @TempDir
    Path dir;
    private int tlsPort;

    @BeforeEach
    void certificates() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "origin", "origin.test");
        TlsKit.signed(dir, "client", "client.test");
        TlsKit.authority(dir, "other-ca");
        tlsPort = freePort();
    }

    /** nginx with a TLS server that tells what it saw of the connection. */
    private NginxOrigin nginx() throws Exception {
        return nginx("optional");
    }

    /** @param verifyClient nginx's ssl_verify_client; its certificate request names the CA of ca.pem */
    private NginxOrigin nginx(String verifyClient) throws Exception {
        return NginxOrigin.start("""
                    server {
                        listen 127.0.0.1:%d ssl;
                        ssl_certificate %s;
                        ssl_certificate_key %s;
                        ssl_client_certificate %s;
                        ssl_verify_client %s;
                        ssl_protocols TLSv1.2 TLSv1.3;
                        ssl_session_cache shared:tls:1m;
                        location / {
                            add_header x-conn "$connection#$connection_requests" always;
                            return 200 "sni=$ssl_server_name reused=$ssl_session_reused client=$ssl_client_s_dn\\n";
                        }
                    }
                """.formatted(tlsPort, dir.resolve("origin.crt"), dir.resolve("origin.key"), dir.resolve("ca.pem"), verifyClient), "");
    }

    private String config(int port, String mode, String serverOptions) {
        // One thread: HAProxy keeps the session to reuse per server and thread.
        return "global\n    nbthread 1\ndefaults\n    mode " + mode + "\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                + "listen p\n    bind 127.0.0.1:" + port + "\n    http-reuse never\n"
                + (mode.equals("http") ? "    http-after-response set-header x-bc \"%[ssl_bc] %[ssl_bc_protocol] %[ssl_bc_is_resumed] %[ssl_bc_err] [%[ssl_bc_err_str]] %[ssl_s_s_dn] %[ssl_s_i_dn(CN)] %[ssl_s_version] %[ssl_bc_client_random,hex,length] %[ssl_bc_server_random,hex,length]\"\n" : "")
                + "    server s 127.0.0.1:" + tlsPort + " ssl " + serverOptions + "\n";
    }

    /** One request on its own connection: the status line, the x-bc header and the body. */
    private static String get(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String r = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            StringBuilder sb = new StringBuilder(r.substring(0, r.indexOf("\r\n")));
            for (String line : r.split("\r\n")) {
                if (line.toLowerCase().startsWith("x-bc:")) {
                    sb.append(" |").append(line.substring(5).trim()).append('|');
                }
            }
            return sb.append(' ').append(r.substring(r.indexOf("\r\n\r\n") + 4).trim()).toString();
        }
    }

    /**
     * The name an {@code sni} expression gives is part of what an idle connection must match (HAProxy's connection hash):
     * under {@code http-reuse always}, a request for another name never goes on a connection opened with the first one.
     */
    @Test
    void idleConnectionsServeOnlyTheirSni() throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "http", "verify none sni req.hdr(host)").replace("http-reuse never", "http-reuse always"),
                     port)) {
            for (String host : new String[] {"a.test", "b.test", "a.test", "b.test"}) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).contains("sni=" + host + " ");
                }
            }
        }
    }

    /**
     * Whether a connection named by an {@code sni} expression is kept idle beside one of another name: one client connection
     * alternates two names. With the default pool-low-conn the second name's connection is closed after each request (the
     * estimate of the need is one connection), with pool-low-conn 2 both are kept; each answer is "connection#request", the
     * origin's connections numbered in order of appearance (HAProxy's keep/close decision, on one thread).
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource({"'', 1#1 2#1 1#2 3#1 1#3", "pool-low-conn 2, 1#1 2#1 1#2 2#2 1#3"})
    void idleConnectionsOfTwoSniNames(String low, String expected) throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "http", "verify none sni req.hdr(x-sni) " + low).replace("http-reuse never", "http-reuse safe"),
                     port);
             HttpClientConn c = HttpClientConn.open(port)) {
            java.util.Map<String, Integer> numbers = new java.util.HashMap<>();
            List<String> seen = new java.util.ArrayList<>();
            for (String name : List.of("a.test", "b.test", "a.test", "b.test", "a.test")) {
                String[] conn = c.exchange("GET / HTTP/1.1\r\nHost: x\r\nx-sni: " + name + "\r\n\r\n").head().get("x-conn").split("#");
                seen.add(numbers.computeIfAbsent(conn[0], k -> numbers.size() + 1) + "#" + conn[1]);
            }
            assertThat(String.join(" ", seen)).isEqualTo(expected);
        }
    }

    @Test
    void verifiedWithSniAndSessionsReused() throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "http", "verify required ca-file " + dir.resolve("ca.pem") + " sni str(origin.test)"), port)) {
            assertThat(get(port)).startsWith("HTTP/1.1 200").contains("|1 TLSv1.3 0 0 [] /CN=origin.test ca test CA 3 64 64|").endsWith("sni=origin.test reused=. client=");
            assertThat(get(port)).startsWith("HTTP/1.1 200").contains("|1 TLSv1.3 1 0 [] /CN=origin.test ca test CA 3 64 64|").endsWith("sni=origin.test reused=r client=");
        }
    }

    @Test
    void noSslReuseAndVerifyNone() throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "http", "verify none no-ssl-reuse ssl-max-ver TLSv1.2"), port)) {
            for (int i = 0; i < 2; i++) {
                assertThat(get(port)).startsWith("HTTP/1.1 200").contains("|1 TLSv1.2 0 0 [] /CN=origin.test ca test CA 3 64 64|").endsWith("sni= reused=. client=");
            }
        }
    }

    @Test
    void clientCertificate() throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "http", "verify none crt " + dir.resolve("client.pem")), port)) {
            assertThat(get(port)).startsWith("HTTP/1.1 200").endsWith("client=CN=client.test");
        }
    }

    /** The certificate is sent even when the server's certificate request does not name its CA, as HAProxy's OpenSSL does. */
    @Test
    void clientCertificateOfAnotherCa() throws Exception {
        TlsKit.certificate(dir, "foreign", "rsa:2048", "foreign.test", "other-ca");
        int port = freePort();
        try (NginxOrigin origin = nginx("optional_no_ca");
             FulcrumProcess p = serve(config(port, "http", "verify none crt " + dir.resolve("foreign.pem")), port)) {
            assertThat(get(port)).startsWith("HTTP/1.1 200").endsWith("client=CN=foreign.test");
        }
    }

    /**
     * A server line's client certificate is in the certificate store: {@code show ssl cert} lists it (in name order,
     * with the bind lines'), {@code set/commit ssl cert} replaces it in every server line presenting it (one dot each),
     * and the next connection presents the new certificate in a full handshake (the sessions made with the old one
     * are not resumed: HAProxy flushes them).
     */
    @Test
    void aCommittedClientCertificateIsPresentedByTheNextConnections() throws Exception {
        TlsKit.signed(dir, "client2", "client2.test");
        TlsKit.selfSigned(dir, "z-front", "front.test");
        Path admin = dir.resolve("admin.sock");
        String crt = dir.resolve("client.pem").toString();
        String front = dir.resolve("z-front.pem").toString();
        int port = freePort();
        String cfg = config(port, "http", "verify none crt " + crt).replace("global\n", "global\n    stats socket " + admin + " level admin\n")
                + "frontend tls\n    bind 127.0.0.1:" + freePort() + " ssl crt " + front + "\n"
                + "backend other\n    server o 127.0.0.1:" + tlsPort + " ssl verify none crt " + crt + "\n";
        try (NginxOrigin origin = nginx(); FulcrumProcess p = serve(cfg, port)) {
            assertThat(get(port)).endsWith("reused=. client=CN=client.test");
            assertThat(get(port)).endsWith("reused=r client=CN=client.test");
            assertThat(CliClient.send(admin, "show ssl cert")).isEqualTo("# filename\n" + crt + "\n" + front + "\n\n");
            assertThat(CliClient.send(admin, "show ssl cert " + crt)).startsWith("Filename: " + crt + "\nStatus: Used\n")
                    .contains("Subject: /CN=client.test\nIssuer: /CN=ca test CA\n");
            assertThat(CliClient.send(admin, "set ssl cert " + crt + " <<\n" + Files.readString(dir.resolve("client2.pem"))))
                    .isEqualTo("Transaction created for certificate " + crt + "!\n\n");
            assertThat(get(port)).endsWith("client=CN=client.test"); // not before the commit
            assertThat(CliClient.send(admin, "commit ssl cert " + crt)).isEqualTo("Committing " + crt + "..\nSuccess!\n\n");
            assertThat(get(port)).endsWith("reused=. client=CN=client2.test");
            assertThat(get(port)).endsWith("reused=r client=CN=client2.test");
            assertThat(CliClient.send(admin, "show ssl cert " + crt)).startsWith("Filename: " + crt + "\nStatus: Used\n")
                    .contains("Subject: /CN=client2.test\n");
            assertThat(CliClient.send(admin, "del ssl cert " + crt))
                    .isEqualTo("Can't remove the certificate: certificate '" + crt + "' in use, can't be deleted!\n\n\n");
        }
    }

    /** A server whose certificate the CA file does not vouch for, or not for the SNI name: a failed connection (503). */
    @Test
    void verificationFailures() throws Exception {
        for (String options : new String[] {"verify required ca-file " + dir.resolve("other-ca.pem"),
                "verify required ca-file " + dir.resolve("ca.pem") + " sni str(wrong.test)"}) {
            int port = freePort();
            try (NginxOrigin origin = nginx(); FulcrumProcess p = serve(config(port, "http", options), port)) {
                assertThat(get(port)).as(options).startsWith("HTTP/1.1 503 ");
            }
        }
    }

    /**
     * A TLS server that never answers the ClientHello: the handshake belongs to the connection, so its end at
     * {@code timeout connect} is a connect timeout (sC), retried at once.
     */
    @Test
    void unansweredHandshakeIsAConnectTimeout() throws Exception {
        int port = freePort();
        try (ServerSocket mute = new ServerSocket(0, 10, InetAddress.getLoopbackAddress()); // never accepts
             SyslogListener logs = SyslogListener.open();
             FulcrumProcess p = serve("""
                     global
                         log 127.0.0.1:%d format raw local0
                     defaults
                         mode http
                         log global
                         log-format "%%ST %%tsc %%rc"
                         timeout client 5s
                         timeout server 5s
                         timeout connect 500ms
                         retries 1
                     listen p
                         bind 127.0.0.1:%d
                         server s 127.0.0.1:%d ssl verify none
                     """.formatted(logs.port(), port, mute.getLocalPort()), port)) {
            assertThat(get(port)).startsWith("HTTP/1.1 503 ");
            assertThat(logs.next().strip()).isEqualTo("503 sC-- 1");
        }
    }

    @Test
    void tcpMode() throws Exception {
        int port = freePort();
        try (NginxOrigin origin = nginx();
             FulcrumProcess p = serve(config(port, "tcp", "verify required ca-file " + dir.resolve("ca.pem") + " sni str(origin.test)"), port)) {
            assertThat(get(port)).startsWith("HTTP/1.1 200").endsWith("sni=origin.test reused=. client=");
        }
    }

    @Test
    void missingCaFileIsAConfigError() throws Exception {
        Files.writeString(dir.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\n    timeout server 1s\n"
                + "    timeout connect 1s\nbackend b\n    server s 127.0.0.1:1 ssl\n    server s2 127.0.0.1:1 ssl ca-file nope.pem\n"
                + "    server s3 127.0.0.1:1 ssl verify none crl-file nocrl.pem\n    server s4 127.0.0.1:1 ssl ca-file t.cfg\n");
        FulcrumRun r = FulcrumRun.in(dir, "-c", "-f", "t.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[ALERT]    (PID) : config : [t.cfg:7] : 'server b/s' : verify is enabled by default but no CA file specified."
                        + " If you're running on a LAN where you're certain to trust the server's certificate, please set an"
                        + " explicit 'verify none' statement on the 'server' line, or use 'ssl-server-verify none' in the global"
                        + " section to disable server-side verifications by default.\n",
                "[ALERT]    (PID) : config : [t.cfg:8] : 'server b/s2' : Couldn't open the ca-file 'nope.pem' (No such file or directory).\n",
                "[ALERT]    (PID) : config : 'ca-file' : unable to load nope.pem.\n",
                // A CRL file is read even when nothing is verified.
                "[ALERT]    (PID) : config : [t.cfg:9] : 'server b/s3' : Couldn't open the ca-file 'nocrl.pem' (No such file or directory).\n"
                        + "[ALERT]    (PID) : config : 'crl-file' : unable to load nocrl.pem.\n",
                "[ALERT]    (PID) : config : [t.cfg:10] : 'server b/s4' : Couldn't open the ca-file 't.cfg' (no certificate or crl found).\n"
                        + "[ALERT]    (PID) : config : 'ca-file' : unable to load t.cfg.\n");
    }
}
