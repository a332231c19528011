package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * OCSP stapling: a certificate's {@code <crt>.ocsp} response (made by {@code openssl ocsp} in the test) is sent to
 * {@code openssl s_client -status}; {@code set ssl ocsp-response} replaces it for the next handshakes;
 * {@code show ssl ocsp-response} prints what {@code openssl ocsp -text} prints; bad responses are refused with
 * HAProxy's words, at startup with a warning. Expected texts are haproxy 2.6's (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslOcspIT {
    private static Path dir;
    private static Path admin;
    private static int port;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-ocsp");
        admin = dir.resolve("admin.sock");
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.signed(dir, "client", "client.test");
        // The server's file carries its chain: the issuer the certificate's OCSP ID is computed with.
        Files.writeString(dir.resolve("server.pem"), Files.readString(dir.resolve("server.crt")) + Files.readString(dir.resolve("ca.pem"))
                + Files.readString(dir.resolve("server.key")));
        TlsKit.crl(dir); // the CA's database (index.txt, ca.cnf), empty
        ca("-valid", "server.crt");
        ca("-valid", "client.crt");
        ocsp("server.crt", "server.pem.ocsp", "-ndays", "7");
        port = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s
                    http-request return status 200 content-type text/plain string ok
                """.formatted(admin, port, dir.resolve("server.pem")), port);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static void ca(String... args) throws Exception {
        TlsKit.ca(dir, args);
    }

    private static Path ocsp(String cert, String out, String... more) throws Exception {
        return TlsKit.ocsp(dir, cert, out, more);
    }

    private static String cli(String line) throws Exception {
        return CliClient.send(admin, line);
    }

    /** What openssl prints of a response, as the CLI shows it (an empty line would end the answer: " "). */
    private static String text(String file) throws Exception {
        return TlsKit.run(dir, "", "openssl", "ocsp", "-respin", file, "-text", "-noverify").replace("\n\n", "\n \n");
    }

    /** The OCSP part of what {@code openssl s_client -status} prints. */
    private static String stapled() throws Exception {
        String out = TlsKit.sClient(dir, port, "", "-status", "-servername", "server.test");
        int at = out.indexOf("OCSP response:");
        return at < 0 ? out : out.substring(at, out.indexOf("======================================", at + 60));
    }

    private static String key() throws Exception {
        String cert = cli("show ssl cert " + dir.resolve("server.pem"));
        return cert.substring(cert.indexOf("OCSP Response Key: ") + 19, cert.indexOf('\n', cert.indexOf("OCSP Response Key: ")));
    }

    @Test
    void stapledAndReplaced() throws Exception {
        assertThat(stapled()).contains("OCSP Response Status: successful (0x0)", "Cert Status: good");
        String key = key();
        assertThat(key).matches("30[0-9a-f]{2}300906052b0e03021a05000414[0-9a-f]{40}0414[0-9a-f]{40}02[0-9a-f]+");
        String response = text("server.pem.ocsp");
        String id = response.substring(response.indexOf("    Certificate ID:\n"), response.indexOf("    Cert Status"));
        assertThat(cli("show ssl ocsp-response")).isEqualTo("# Certificate IDs\nCertificate ID key : " + key + "\n"
                + id.replace("    Certificate ID:\n", " Certificate ID:\n").replace("      Hash Algorithm: sha1\n", "").replace("      ", "   ") + "\n");
        assertThat(cli("show ssl ocsp-response " + key)).isEqualTo(response + "\n");
        assertThat(cli("show ssl cert " + dir.resolve("server.pem") + ".ocsp")).isEqualTo(cli("show ssl ocsp-response " + key));

        // The certificate is revoked: the new response is stapled by the next handshakes.
        ca("-revoke", "server.crt");
        Path revoked = ocsp("server.crt", "revoked.der", "-ndays", "7");
        assertThat(cli("set ssl ocsp-response " + Base64.getEncoder().encodeToString(Files.readAllBytes(revoked)))).isEqualTo("OCSP Response updated!\n\n");
        assertThat(stapled()).contains("Cert Status: revoked", "Revocation Time: ");
        assertThat(cli("show ssl ocsp-response " + key)).isEqualTo(text("revoked.der") + "\n");
        // The payload form, back to a good one.
        assertThat(cli("set ssl ocsp-response <<\n" + Base64.getMimeEncoder().encodeToString(Files.readAllBytes(dir.resolve("server.pem.ocsp"))) + "\n"))
                .isEqualTo("OCSP Response updated!\n\n");
        assertThat(stapled()).contains("Cert Status: good");
    }

    @Test
    void refusals() throws Exception {
        assertThat(cli("set ssl ocsp-response")).isEqualTo("'set ssl ocsp-response' expects response in base64 encoding.\n\n");
        assertThat(cli("set ssl ocsp-response !!!")).isEqualTo("'set ssl ocsp-response' received invalid base64 encoded response.\n\n");
        assertThat(cli("set ssl ocsp-response AAAA")).isEqualTo("Unable to parse OCSP response.\n\n");
        assertThat(cli("set ssl ocsp-response " + base64(ocsp("client.crt", "client.der", "-ndays", "7"))))
                .isEqualTo("OCSP single response: Certificate ID does not match any certificate or issuer.\n\n");
        assertThat(cli("set ssl ocsp-response " + base64(ocsp("server.crt", "nonext.der"))))
                .isEqualTo("OCSP single response: missing nextupdate.\n\n");
        assertThat(cli("set ssl ocsp-response " + base64(ocsp("ca.pem", "unknown.der", "-ndays", "7"))))
                .isEqualTo("OCSP single response: certificate status is unknown.\n\n");
        assertThat(cli("set ssl ocsp-response " + base64(ocsp("server.crt", "two.der", "-cert", "client.crt", "-ndays", "7"))))
                .isEqualTo("OCSP response ignored because contains multiple single responses (2).\n\n");
        assertThat(cli("show ssl ocsp-response 00")).isEqualTo("Certificate ID does not match any certificate.\n\n");
    }

    /** A response signed by a delegated responder carries certificates: each is shown as OpenSSL prints it, then in PEM. */
    @Test
    void theCertificatesOfAResponse() throws Exception {
        Files.writeString(dir.resolve("responder.ext"), "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                + "extendedKeyUsage=OCSPSigning,serverAuth\nsubjectAltName=DNS:ocsp.test,IP:127.0.0.1,email:ocsp@test\n"
                + "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n");
        TlsKit.run(dir, "", "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "responder.key", "-subj",
                "/C=FR/O=Test Org/CN=ocsp responder", "-out", "responder.csr");
        TlsKit.run(dir, "", "openssl", "x509", "-req", "-in", "responder.csr", "-days", "30", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", "4096", "-extfile", "responder.ext", "-out", "responder.crt");
        TlsKit.run(dir, "", "openssl", "ecparam", "-name", "prime256v1", "-out", "p256.pem");
        TlsKit.certificate(dir, "ecresponder", "ec:p256.pem", "ec.ocsp.test", "ca");
        TlsKit.run(dir, "", "openssl", "ocsp", "-index", "index.txt", "-CA", "ca.pem", "-rsigner", "responder.crt", "-rkey", "responder.key",
                "-issuer", "ca.pem", "-cert", "server.crt", "-respout", "by-responder.der", "-no_nonce", "-ndays", "7");
        TlsKit.run(dir, "", "openssl", "ocsp", "-index", "index.txt", "-CA", "ca.pem", "-rsigner", "ecresponder.crt", "-rkey", "ecresponder.key",
                "-rother", "ca.pem", "-issuer", "ca.pem", "-cert", "server.crt", "-respout", "by-ec.der", "-no_nonce", "-ndays", "7");
        String key = key();
        try {
            for (String response : List.of("by-responder.der", "by-ec.der")) {
                assertThat(cli("set ssl ocsp-response " + base64(dir.resolve(response)))).isEqualTo("OCSP Response updated!\n\n");
                String text = text(response);
                assertThat(text).contains("Certificate:\n    Data:\n", "-----END CERTIFICATE-----\n");
                assertThat(cli("show ssl ocsp-response " + key)).isEqualTo(text + "\n");
            }
        } finally {
            cli("set ssl ocsp-response " + base64(dir.resolve("server.pem.ocsp")));
        }
    }

    /** At startup: a response HAProxy would not take is left out with a warning; without the issuer, no ID: an error. */
    @Test
    void startup() throws Exception {
        Path d = Files.createTempDirectory(dir, "startup");
        Files.copy(dir.resolve("server.pem"), d.resolve("chained.pem"));
        Files.writeString(d.resolve("chained.pem.ocsp"), "garbage\n");
        Files.copy(dir.resolve("client.pem"), d.resolve("other.pem"));
        Files.copy(dir.resolve("ca.pem"), d.resolve("other.pem.issuer"));
        Files.copy(dir.resolve("server.pem.ocsp"), d.resolve("other.pem.ocsp"));
        Files.copy(dir.resolve("client.pem"), d.resolve("alone.pem"));
        Files.copy(ocsp("client.crt", "alone.der", "-ndays", "7"), d.resolve("alone.pem.ocsp"));
        Files.writeString(d.resolve("t.cfg"), "defaults\n    mode http\n    timeout client 1s\n    timeout server 1s\n    timeout connect 1s\n"
                + "frontend f\n    bind :8443 ssl crt chained.pem\n    bind :8444 ssl crt other.pem\n    bind :8445 ssl crt alone.pem\n");
        FulcrumRun r = FulcrumRun.in(d, "-c", "-f", "t.cfg");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.maskedStderr()).contains(
                "[WARNING]  (PID) : config : Loading: Unable to parse OCSP response. Content will be ignored.\n",
                "[WARNING]  (PID) : config : Loading: OCSP single response: Certificate ID does not match certificate and issuer."
                        + " Content will be ignored.\n",
                "[ALERT]    (PID) : config : parsing [t.cfg:9] : 'bind :8445' in section 'frontend' :  'alone.pem.ocsp' is present and"
                        + " activates OCSP but it is impossible to compute the OCSP certificate ID (maybe the issuer could not be found)'.\n");
    }

    private static String base64(Path file) throws Exception {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }
}
