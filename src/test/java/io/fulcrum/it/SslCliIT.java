package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.SSLSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI's certificate commands over a real stats socket (management.txt 9.3): certificates replaced by a
 * transaction ({@code set/commit/abort ssl cert}) and seen by the next handshake of a real TLS client while an open
 * connection keeps working, new certificates put in a crt-list ({@code new ssl cert}, {@code add/del ssl crt-list}),
 * and the outputs and refusals. Expected texts are haproxy 2.6's (run with -Dit.proxy=haproxy to check them).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslCliIT {
    private static Path dir;
    private static Path admin;
    private static int port;
    private static FulcrumProcess proxy;
    private static String a;
    private static String b;
    private static String list;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-sslcli");
        admin = dir.resolve("admin.sock");
        a = TlsKit.selfSigned(dir, "a", "a.example.com").toString();
        b = TlsKit.selfSigned(dir, "b", "b.example.com").toString();
        TlsKit.selfSigned(dir, "a2", "a2.example.com");
        TlsKit.selfSigned(dir, "c", "c.example.com");
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "s", "s.example.com");
        Files.writeString(dir.resolve("s.pem"), Files.readString(dir.resolve("s.crt")) + Files.readString(dir.resolve("ca.pem"))
                + Files.readString(dir.resolve("s.key")));
        list = dir.resolve("list.txt").toString();
        Files.writeString(Path.of(list), b + " [alpn h2 ssl-min-ver TLSv1.2] b.example.com !x.b.example.com\n");
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
                    bind 127.0.0.1:%d ssl crt %s crt-list %s
                    http-request return status 200 content-type text/plain string ok
                """.formatted(admin, port, a, list), port);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    /** The answer, without the NUL byte HAProxy 2.6 writes after an ALPN list in a crt-list line. */
    private static String cli(String line) throws Exception {
        return CliClient.send(admin, line).replace("\0", "");
    }

    private static String pem(String name) throws Exception {
        return Files.readString(dir.resolve(name + ".pem"));
    }

    private static String presented(String sni) throws Exception {
        try (SSLSocket s = TlsKit.connect(port, sni, null)) {
            return TlsKit.serverName(s);
        }
    }

    @Test
    void aCommittedCertificateIsPresentedByTheNextHandshakes() throws Exception {
        assertThat(presented(null)).isEqualTo("a.example.com");
        assertThat(cli("set ssl cert " + a + " <<\n" + pem("a2"))).isEqualTo("Transaction created for certificate " + a + "!\n\n");
        assertThat(cli("show ssl cert")).isEqualTo("# transaction\n*" + a + "\n# filename\n" + a + "\n" + b + "\n\n");
        assertThat(cli("show ssl cert *" + a)).contains("Filename: *" + a + "\nStatus: Unused\n", "Subject: /CN=a2.example.com\n");
        assertThat(presented(null)).isEqualTo("a.example.com"); // not before the commit
        try (SSLSocket open = TlsKit.connect(port, null, null)) {
            assertThat(cli("commit ssl cert " + a)).isEqualTo("Committing " + a + ".\nSuccess!\n\n");
            assertThat(presented(null)).isEqualTo("a2.example.com");
            assertThat(presented("unknown.example.com")).isEqualTo("a2.example.com");
            // The connection opened before keeps its certificate and works.
            assertThat(TlsKit.serverName(open)).isEqualTo("a.example.com");
            assertThat(TlsKit.get(open, "/")).startsWith("HTTP/1.1 200").endsWith("ok");
        }
        assertThat(cli("show ssl cert")).isEqualTo("# filename\n" + a + "\n" + b + "\n\n");
        assertThat(cli("show ssl cert " + a)).contains("Status: Used\n", "Subject Alternative Name: DNS:a2.example.com\n");
        // A payload replaces certificate and key: without a key the transaction has none, and its commit is refused.
        String certOnly = pem("a2").substring(0, pem("a2").indexOf("-----END CERTIFICATE-----") + 25) + "\n";
        assertThat(cli("set ssl cert " + a + " <<\n" + certOnly)).isEqualTo("Transaction created for certificate " + a + "!\n\n");
        assertThat(cli("show ssl cert *" + a)).contains("Subject: /CN=a2.example.com\n");
        assertThat(cli("commit ssl cert " + a)).isEqualTo("The transaction must contain at least a certificate and a private key!\n"
                + "Can't commit " + a + "!\n\n");
        assertThat(cli("abort ssl cert " + a)).isEqualTo("Transaction aborted for certificate '" + a + "'!\n\n");
        assertThat(presented(null)).isEqualTo("a2.example.com");
    }

    @Test
    void showsACertificateAsHaproxyDoes() throws Exception {
        String s = dir.resolve("s.pem").toString();
        assertThat(cli("new ssl cert " + s)).isEqualTo("New empty certificate store '" + s + "'!\n\n");
        assertThat(cli("show ssl cert " + s)).isEqualTo("Filename: " + s + "\nStatus: Empty\nOCSP Response Key: \n\n");
        assertThat(cli("set ssl cert " + s + " <<\n" + pem("s"))).isEqualTo("Transaction created for certificate " + s + "!\n\n");
        assertThat(cli("commit ssl cert " + s)).isEqualTo("Committing " + s + "\nSuccess!\n\n");
        String serial = TlsKit.run(dir, "", "openssl", "x509", "-in", "s.crt", "-noout", "-serial").strip().substring(7);
        String sha1 = TlsKit.run(dir, "", "openssl", "x509", "-in", "s.crt", "-noout", "-fingerprint", "-sha1").strip()
                .replaceAll(".*=", "").replace(":", "");
        String detail = cli("show ssl cert " + s);
        assertThat(detail).matches("(?s)Filename: " + s + "\nStatus: Unused\nSerial: " + serial + "\n"
                + "notBefore: [A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d \\d{4} GMT\nnotAfter: [A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d \\d{4} GMT\n"
                + "Subject Alternative Name: DNS:s.example.com\nAlgorithm: RSA2048\nSHA1 FingerPrint: " + sha1 + "\n"
                + "Subject: /CN=s.example.com\nIssuer: /CN=ca test CA\nChain Subject: /CN=ca test CA\nChain Issuer: /CN=ca test CA\n"
                + "OCSP Response Key: \n\n");
        assertThat(cli("del ssl cert " + s)).isEqualTo("Certificate '" + s + "' deleted!\n\n");
        assertThat(cli("show ssl cert " + s)).isEqualTo("Can't display the certificate: Not found or the certificate is a bundle!\n\n");
    }

    @Test
    void aNewCertificateJoinsACrtListAndLeavesIt() throws Exception {
        String c = dir.resolve("c.pem").toString();
        assertThat(cli("show ssl crt-list")).isEqualTo(list + "\n\n");
        assertThat(cli("show ssl crt-list " + list)).isEqualTo("# " + list + "\n" + b + " [alpn h2 ssl-min-ver TLSv1.2] b.example.com !x.b.example.com\n\n");
        assertThat(presented("c.example.com")).isNotEqualTo("c.example.com");
        assertThat(cli("new ssl cert " + c)).isEqualTo("New empty certificate store '" + c + "'!\n\n");
        assertThat(cli("add ssl crt-list " + list + " " + c)).isEqualTo("Can't edit the crt-list: certificate '" + c + "' is empty!\n\n");
        assertThat(cli("set ssl cert " + c + " <<\n" + pem("c"))).isEqualTo("Transaction created for certificate " + c + "!\n\n");
        assertThat(cli("commit ssl cert " + c)).isEqualTo("Committing " + c + "\nSuccess!\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + c + " [alpn http/1.1 verify none] c.example.com\n"))
                .isEqualTo("Inserting certificate '" + c + "' in crt-list '" + list + "'.\nSuccess!\n\n");
        assertThat(presented("c.example.com")).isEqualTo("c.example.com");
        assertThat(cli("show ssl cert " + c)).contains("Status: Used\n");
        assertThat(cli("del ssl cert " + c)).isEqualTo("Can't remove the certificate: certificate '" + c + "' in use, can't be deleted!\n\n\n");
        // Without a payload, the words after the certificate are ignored: the line is the certificate alone.
        assertThat(cli("add ssl crt-list " + list + " " + c + " [verify required bogus] y.example.com"))
                .isEqualTo("Inserting certificate '" + c + "' in crt-list '" + list + "'.\nSuccess!\n\n");
        assertThat(cli("show ssl crt-list -n " + list)).isEqualTo("# " + list + "\n"
                + b + ":1 [alpn h2 ssl-min-ver TLSv1.2] b.example.com !x.b.example.com\n"
                + c + ":2 [alpn http/1.1 verify none] c.example.com\n" + c + ":3\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + c)).isEqualTo("Can't delete the entry: found the certificate '" + c
                + "' in several entries, please specify a line number preceded by colons (2, 3)!\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + c + ":2")).isEqualTo("Entry '" + c + "' deleted in crtlist '" + list + "'!\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + c)).isEqualTo("Entry '" + c + "' deleted in crtlist '" + list + "'!\n\n");
        assertThat(presented("c.example.com")).isNotEqualTo("c.example.com");
        assertThat(cli("del ssl cert " + c)).isEqualTo("Certificate '" + c + "' deleted!\n\n");
    }

    /**
     * A payload's key is checked against its certificate when the transaction is committed (it stays open then), and
     * {@code set ssl cert <file>.key} replaces the key alone, as in haproxy 2.6.
     */
    @Test
    void keysAreCheckedAtTheCommit() throws Exception {
        String bCert = pem("b").substring(0, pem("b").indexOf("-----END CERTIFICATE-----") + 25) + "\n";
        assertThat(cli("set ssl cert " + b + " <<\n" + bCert + Files.readString(dir.resolve("c.key"))))
                .isEqualTo("Transaction created for certificate " + b + "!\n\n");
        assertThat(cli("commit ssl cert " + b))
                .isEqualTo("inconsistencies between private key and certificate loaded '" + b + "'.\nCan't commit " + b + "!\n\n");
        assertThat(cli("set ssl cert " + b + ".key <<\n" + Files.readString(dir.resolve("b.key"))))
                .isEqualTo("Transaction updated for certificate " + b + "!\n\n");
        assertThat(cli("commit ssl cert " + b)).startsWith("Committing " + b + ".").endsWith("\nSuccess!\n\n");
        assertThat(presented("b.example.com")).isEqualTo("b.example.com");
    }

    @Test
    void refusals() throws Exception {
        String nope = dir.resolve("nope.pem").toString();
        assertThat(cli("commit ssl cert " + a)).isEqualTo("No ongoing transaction! !\nCan't commit " + a + "!\n\n");
        assertThat(cli("abort ssl cert " + a)).isEqualTo("No ongoing transaction!\n\n");
        assertThat(cli("set ssl cert " + nope + " <<\n" + pem("a2")))
                .isEqualTo("Can't replace a certificate which is not referenced by the configuration!\nCan't update " + nope + "!\n\n");
        assertThat(cli("set ssl cert " + a)).isEqualTo("'set ssl cert expects a filename and a certificate as a payload\n\n");
        assertThat(cli("set ssl cert " + a + " <<\n" + Files.readString(dir.resolve("a.key"))))
                .isEqualTo("unable to load certificate from file '" + a + "'.\nCan't load the payload\nCan't update " + a + "!\n\n");
        assertThat(cli("new ssl cert " + a)).isEqualTo("Certificate '" + a + "' already exists!\n\n");
        assertThat(cli("show ssl cert " + nope)).isEqualTo("Can't display the certificate: Not found or the certificate is a bundle!\n\n");
        assertThat(cli("show ssl crt-list " + nope)).isEqualTo("didn't find the specified filename\n\n");
        assertThat(cli("add ssl crt-list " + nope + " " + a)).isEqualTo("Can't edit the crt-list: crt-list '" + nope + "' does not exist!\n\n");
        assertThat(cli("add ssl crt-list " + list + " " + nope)).isEqualTo("Can't edit the crt-list: certificate '" + nope + "' does not exist!\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + a + " [bogus 1]\n"))
                .isEqualTo("Can't edit the crt-list: parsing [CLI:1]: unknown ssl keyword bogus\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + a + " [ssl-min-ver TLSv9] a.example.com\n"))
                .isEqualTo("Can't edit the crt-list: 'TLSv9' : unknown ssl/tls version\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + a + " [alpn] a.example.com\n"))
                .isEqualTo("Can't edit the crt-list: parsing [CLI:1]: ssl args out of '[]' for alpn\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + a + " a.example.com\n" + b + " b.example.com\n"))
                .isEqualTo("Can't edit the crt-list: only one line of payload is supported!\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n# a comment\n" + a + " a.example.com\n"))
                .isEqualTo("Can't edit the crt-list: only one line of payload is supported!\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + nope)).isEqualTo("Can't delete the entry: certificate '" + nope + "' does not exist!\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + a))
                .isEqualTo("Can't delete the entry: certificate '" + a + "' can't be found in crt-list '" + list + "'!\n\n");
        assertThat(cli("del ssl cert " + nope)).isEqualTo("Can't remove the certificate: certificate '" + nope + "' doesn't exist!\n\n\n");
    }

    /** The first certificate of a bind line is its default: del ssl crt-list does not take it, and names the line. */
    @Test
    void theDefaultCertificateStays() throws Exception {
        Path only = dir.resolve("only.txt");
        String d = TlsKit.selfSigned(dir, "d", "d.example.com").toString();
        Files.writeString(only, d + "\n" + b + "\n");
        Path sock = dir.resolve("only.sock");
        int p = freePort();
        try (FulcrumProcess proc = TcpProxyKit.serve("global\n    stats socket " + sock + " level admin\ndefaults\n    mode http\n"
                + "    timeout client 10s\nfrontend only_list\n    bind 127.0.0.1:" + p + " ssl crt-list " + only + "\n", p)) {
            assertThat(CliClient.send(sock, "del ssl crt-list " + only + " " + d)).matches(Pattern.quote("Can't delete the entry: certificate '" + d
                    + "' cannot be deleted, it is used as default certificate by the following frontends:\n\t- ") + "\\S+:7\n\n\n");
            assertThat(CliClient.send(sock, "del ssl crt-list " + only + " " + b)).isEqualTo("Entry '" + b + "' deleted in crtlist '" + only + "'!\n\n");
            assertThat(CliClient.send(sock, "show ssl crt-list " + only)).isEqualTo("# " + only + "\n" + d + "\n\n");
        }
    }
}
