package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The files looked for beside a certificate (configuration.txt 3.1, {@code ssl-load-extra-files} and
 * {@code ssl-load-extra-del-ext}): its key, its OCSP response and issuer, the members of a bundle. Served
 * configurations also run against HAProxy ({@code -Dit.proxy=haproxy}); the refused ones give HAProxy 2.6's words.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsExtraFilesIT {
    @TempDir
    Path dir;

    private static String config(String global, String... binds) {
        StringBuilder cfg = new StringBuilder("global\n" + global.indent(4) + "defaults\n    mode http\n    timeout client 5s\n"
                + "    timeout server 5s\n    timeout connect 5s\nfrontend f\n");
        for (String b : binds) {
            cfg.append("    bind ").append(b).append('\n');
        }
        return cfg.append("    http-request return status 200 content-type text/plain string ok\n").toString();
    }

    private FulcrumRun check(String global, String... binds) throws Exception {
        Files.writeString(dir.resolve("t.cfg"), config(global, binds));
        return FulcrumRun.in(dir, "-c", "-f", "t.cfg");
    }

    private static String presented(int port, String sni) throws Exception {
        try (SSLSocket s = TlsKit.connect(port, sni, null)) {
            return TlsKit.serverName(s);
        }
    }

    /** With del-ext, "site.crt" has its key in "site.key"; a bundle "b.pem" is b.pem.ecdsa then b.pem.rsa. */
    @Test
    void keyWithoutExtensionAndBundles() throws Exception {
        TlsKit.selfSigned(dir, "site", "site.test");
        TlsKit.selfSigned(dir, "rsa", "rsa.test");
        TlsKit.run(dir, "", "openssl", "ecparam", "-name", "prime256v1", "-out", "p256.pem");
        TlsKit.certificate(dir, "ec", "ec:p256.pem", "ec.test", null);
        Files.copy(dir.resolve("rsa.pem"), dir.resolve("b.pem.rsa"));
        Files.copy(dir.resolve("ec.pem"), dir.resolve("b.pem.ecdsa"));
        int port = freePort();
        int bundle = freePort();
        String cfg = config("ssl-load-extra-del-ext", "127.0.0.1:" + port + " ssl crt " + dir.resolve("site.crt"),
                "127.0.0.1:" + bundle + " ssl crt " + dir.resolve("b.pem"));
        try (FulcrumProcess p = serve(cfg, port)) {
            assertThat(presented(port, "site.test")).isEqualTo("site.test");
            assertThat(presented(bundle, "rsa.test")).isEqualTo("rsa.test");
            assertThat(presented(bundle, "ec.test")).isEqualTo("ec.test");
            assertThat(presented(bundle, null)).isEqualTo("ec.test"); // the first member is the default
        }
    }

    /** Only what ssl-load-extra-files names is read: without ocsp, the response is not stapled. */
    @Test
    void ocspFollowsTheSetting() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        Files.copy(dir.resolve("ca.pem"), dir.resolve("server.pem.issuer"));
        TlsKit.crl(dir);
        TlsKit.ca(dir, "-valid", "server.crt");
        TlsKit.ocsp(dir, "server.crt", "server.pem.ocsp", "-ndays", "7");
        for (String setting : new String[] {"all", "ocsp issuer", "key sctl"}) {
            int port = freePort();
            String cfg = config("ssl-load-extra-files " + setting, "127.0.0.1:" + port + " ssl crt " + dir.resolve("server.pem"));
            try (FulcrumProcess p = serve(cfg, port)) {
                String out = TlsKit.sClient(dir, port, "", "-status", "-servername", "server.test");
                if (!setting.equals("key sctl")) {
                    assertThat(out).as(setting).contains("OCSP Response Status: successful");
                } else {
                    assertThat(out).as(setting).contains("OCSP response: no response sent");
                }
            }
        }
    }

    @Test
    void refusedSettings() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        Files.writeString(dir.resolve("ocsp.pem"), Files.readString(dir.resolve("server.pem")));
        Files.writeString(dir.resolve("ocsp.pem.ocsp"), "not read: no issuer to compute the certificate's ID with");
        Files.copy(dir.resolve("ca.pem"), dir.resolve("ocsp.pem.issuer"));
        Files.copy(dir.resolve("server.crt"), dir.resolve("nokey.pem"));
        Files.copy(dir.resolve("server.key"), dir.resolve("nokey.pem.key"));
        Files.copy(dir.resolve("server.pem"), dir.resolve("b.pem.rsa"));
        String alert = "[ALERT]    (PID) : config : parsing [t.cfg:";
        assertThat(check("ssl-load-extra-files foo").maskedStderr()).contains(alert + "2] : 'ssl-load-extra-files' expects one or"
                + " multiple arguments (none, all, bundle, sctl, ocsp, issuer).\n");
        assertThat(check("ssl-load-extra-files").maskedStderr()).contains(alert + "2] : 'ssl-load-extra-files' expects one or"
                + " multiple arguments (none, all, bundle, sctl, ocsp, issuer).\n");
        assertThat(check("ssl-load-extra-files ocsp none").maskedStderr())
                .contains(alert + "2] : 'ssl-load-extra-files' 'none' and 'all' can be only used alone\n");
        assertThat(check("ssl-load-extra-files all key").maskedStderr())
                .contains(alert + "2] : 'ssl-load-extra-files' 'none' and 'all' can be only used alone\n");
        FulcrumRun r = check("ssl-load-extra-files none", ":8443 ssl crt nokey.pem", ":8444 ssl crt b.pem", ":8445 ssl crt ocsp.pem");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                alert + "9] : 'bind :8443' in section 'frontend' : No Private Key found in 'nokey.pem'.\n",
                alert + "10] : 'bind :8444' in section 'frontend' : unable to stat SSL certificate from file 'b.pem' : No such file or directory.\n")
                .doesNotContain("t.cfg:11");
        // ocsp without issuer: the response is read, its certificate's ID cannot be computed.
        r = check("ssl-load-extra-files ocsp key bundle", ":8443 ssl crt nokey.pem", ":8444 ssl crt b.pem", ":8445 ssl crt ocsp.pem");
        assertThat(r.maskedStderr()).contains(alert + "11] : 'bind :8445' in section 'frontend' :  '" + "ocsp.pem.ocsp' is present and"
                + " activates OCSP but it is impossible to compute the OCSP certificate ID (maybe the issuer could not be found)'.\n")
                .doesNotContain("t.cfg:9").doesNotContain("t.cfg:10");
    }

    /** issuers-chain-path: a certificate without its chain is sent with the chain of the issuer found there. */
    @Test
    void issuersChainPath() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        Path issuers = Files.createDirectory(dir.resolve("issuers"));
        TlsKit.authority(issuers, "other"); // (its key file holds no certificate: a warning)
        Files.copy(dir.resolve("ca.pem"), issuers.resolve("ca.pem"));
        for (String global : new String[] {"", "issuers-chain-path " + issuers}) {
            int port = freePort();
            try (FulcrumProcess p = serve(config(global, "127.0.0.1:" + port + " ssl crt " + dir.resolve("server.pem")), port);
                 SSLSocket s = TlsKit.connect(port, "server.test", null)) {
                java.security.cert.Certificate[] chain = s.getSession().getPeerCertificates();
                assertThat(chain).as(global).hasSize(global.isEmpty() ? 1 : 2);
                if (!global.isEmpty()) {
                    assertThat(chain[1].getEncoded()).isEqualTo(java.security.cert.CertificateFactory.getInstance("X.509")
                            .generateCertificate(new java.io.ByteArrayInputStream(Files.readAllBytes(dir.resolve("ca.pem")))).getEncoded());
                }
            }
        }
        String alert = "[ALERT]    (PID) : config : parsing [t.cfg:2] : global statement 'issuers-chain-path' expects a directory path as"
                + " an argument.\n";
        assertThat(check("issuers-chain-path " + dir.resolve("missing")).maskedStderr()).contains(alert);
        assertThat(check("issuers-chain-path").maskedStderr()).contains(alert);
        assertThat(check("issuers-chain-path " + issuers, ":8443 ssl crt " + dir.resolve("server.pem")).maskedStderr())
                .contains("[WARNING]  (PID) : config : unable to load issuers-chain " + issuers.resolve("other.key") + " : pem certificate not found.\n");
    }
}
