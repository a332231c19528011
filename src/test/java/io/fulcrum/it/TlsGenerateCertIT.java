package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code generate-certificates} with {@code ca-sign-file} (configuration.txt 5.1): a name no certificate has gets
 * one made for it, signed by the CA (curl verifies it with the CA alone), with the default certificate's key, kept
 * for the next connections. Runs against HAProxy too ({@code -Dit.proxy=haproxy}); the refused configurations give
 * HAProxy 2.6's words.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsGenerateCertIT {
    @TempDir
    Path dir;

    private String config(int port, String options) {
        return "defaults\n    mode http\n    timeout client 5s\n    timeout server 5s\n    timeout connect 5s\n"
                + "frontend f\n    bind 127.0.0.1:" + port + " ssl crt " + dir.resolve("server.pem") + " " + options + "\n"
                + "    http-request return status 200 content-type text/plain lf-string \"s=%[ssl_f_s_dn] i=%[ssl_f_i_dn]\"\n";
    }

    private String curl(int port, String name) throws Exception {
        return TlsKit.run(dir, "", "curl", "-s", "--max-time", "10", "--cacert", dir.resolve("ca.pem").toString(), "-w", " code=%{http_code}",
                "--resolve", name + ":" + port + ":127.0.0.1", "https://" + name + ":" + port + "/");
    }

    private static X509Certificate presented(int port, String sni) throws Exception {
        try (SSLSocket s = TlsKit.connect(port, sni, null)) {
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    /** Has the certificate of {@code sni} made: HAProxy 2.6 then ends that first connection (even within its handshake). */
    private static void prime(int port, String sni) throws Exception {
        try {
            presented(port, sni);
        } catch (java.io.IOException e) {
            assertThat(TcpProxyKit.haproxy()).as("Fulcrum serves the first connection: %s", e).isTrue();
        }
    }

    @Test
    void generatedCertificates() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        Files.writeString(dir.resolve("sign.pem"), Files.readString(dir.resolve("ca.pem")) + Files.readString(dir.resolve("ca.key")));
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, "generate-certificates ca-sign-file " + dir.resolve("sign.pem")), port)) {
            if (!TcpProxyKit.haproxy()) {
                // HAProxy 2.6 closes the first connection of a new name (differences.md).
                assertThat(curl(port, "new.example")).isEqualTo("s=/CN=ca test CA/CN=new.example i=/CN=ca test CA code=200");
            }
            prime(port, "foo.example");
            prime(port, "bar.example");
            assertThat(curl(port, "foo.example")).isEqualTo("s=/CN=ca test CA/CN=foo.example i=/CN=ca test CA code=200");
            assertThat(curl(port, "server.test")).isEqualTo("s=/CN=server.test i=/CN=ca test CA code=200");
            X509Certificate bar = presented(port, "bar.example");
            assertThat(bar.getSubjectAlternativeNames()).containsExactly(List.of(2, "bar.example"));
            assertThat(bar.getIssuerX500Principal().getName()).isEqualTo("CN=ca test CA");
            X509Certificate server = presented(port, "server.test");
            assertThat(bar.getPublicKey()).isEqualTo(server.getPublicKey()); // the default certificate's key
            assertThat(presented(port, "bar.example").getSerialNumber()).isEqualTo(bar.getSerialNumber()); // kept
            assertThat(presented(port, null).getSubjectX500Principal().getName()).isEqualTo("CN=server.test");
        }
    }

    /** {@code commit ssl cert} of the default certificate's file: the certificates forged next take its new key (issue 8). */
    @Test
    void committedDefaultCertificateIsTheTemplate() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.signed(dir, "renewed", "server.test");
        Files.writeString(dir.resolve("sign.pem"), Files.readString(dir.resolve("ca.pem")) + Files.readString(dir.resolve("ca.key")));
        Path admin = dir.resolve("admin.sock");
        int port = freePort();
        String file = dir.resolve("server.pem").toString();
        try (FulcrumProcess p = serve("global\n    stats socket " + admin + " level admin\n"
                + config(port, "generate-certificates ca-sign-file " + dir.resolve("sign.pem")), port)) {
            prime(port, "before.example");
            assertThat(presented(port, "before.example").getPublicKey()).isEqualTo(presented(port, "server.test").getPublicKey());
            assertThat(TlsKit.cli(admin, "set ssl cert " + file + " <<\n" + Files.readString(dir.resolve("renewed.pem"))))
                    .isEqualTo("Transaction created for certificate " + file + "!\n\n");
            assertThat(TlsKit.cli(admin, "commit ssl cert " + file)).contains("Success!");
            X509Certificate renewed = presented(port, "server.test");
            assertThat(renewed.getPublicKey()).isNotEqualTo(presented(port, "before.example").getPublicKey());
            prime(port, "after.example");
            X509Certificate after = presented(port, "after.example");
            assertThat(after.getSubjectAlternativeNames()).containsExactly(List.of(2, "after.example"));
            assertThat(after.getPublicKey()).isEqualTo(renewed.getPublicKey());
        }
    }

    /**
     * {@code ca-sign-pass}: the CA's key under a pass phrase signs the certificates made. HAProxy 2.6 reads the CA file
     * without the pass phrase (OpenSSL asks for one on the terminal) and cannot use such a key (differences.md).
     */
    @Test
    void encryptedCaKeyWithItsPassPhrase() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(TcpProxyKit.haproxy(), "HAProxy 2.6 does not read encrypted CA keys");
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.run(dir, "", "openssl", "pkcs8", "-topk8", "-in", "ca.key", "-v2", "aes256", "-passout", "pass:s3cret", "-out", "ca.enc");
        Files.writeString(dir.resolve("sign.pem"), Files.readString(dir.resolve("ca.pem")) + Files.readString(dir.resolve("ca.enc")));
        String sign = "generate-certificates ca-sign-file " + dir.resolve("sign.pem");
        int port = freePort();
        try (FulcrumProcess p = serve(config(port, sign + " ca-sign-pass s3cret"), port)) {
            assertThat(curl(port, "new.example")).isEqualTo("s=/CN=ca test CA/CN=new.example i=/CN=ca test CA code=200");
        }
        Files.writeString(dir.resolve("t.cfg"), config(8443, sign + " ca-sign-pass wrong"));
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains("[ALERT]    (PID) : config : Proxy 'f': Failed to"
                + " read CA certificate file '" + dir.resolve("sign.pem") + "' at [t.cfg:7]. Chain loading failed: unable to load SSL"
                + " private key from PEM file '" + dir.resolve("sign.pem") + "' (wrong pass phrase?).\n");
    }

    @Test
    void refusedConfigurations() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        Files.writeString(dir.resolve("t.cfg"), config(8443, "generate-certificates"));
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains("[ALERT]    (PID) : config : Proxy 'f': cannot enable"
                + " certificate generation, no CA certificate File configured at [t.cfg:7].\n");
        Files.writeString(dir.resolve("t.cfg"), config(8443, "generate-certificates ca-sign-file " + dir.resolve("ca.pem")));
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").maskedStderr()).contains("[ALERT]    (PID) : config : Proxy 'f': Failed to"
                + " read CA certificate file '" + dir.resolve("ca.pem") + "' at [t.cfg:7]. Chain loading failed: No Private Key found in '"
                + dir.resolve("ca.pem.key") + "'.\n");
        // Without generate-certificates the CA file is not even read.
        Files.writeString(dir.resolve("t.cfg"), config(8443, "ca-sign-file " + dir.resolve("missing.pem")));
        assertThat(FulcrumRun.in(dir, "-c", "-f", "t.cfg").exit()).isZero();
    }
}
