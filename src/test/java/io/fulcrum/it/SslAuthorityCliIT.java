package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLSocket;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI's commands on CA files and CRL files over a real stats socket (management.txt 9.3): a bind line's
 * {@code ca-file} and {@code crl-file} replaced by a transaction, seen by the next handshakes of curl with a client
 * certificate while a connection opened before keeps working; the outputs and refusals. Expected texts are haproxy
 * 2.6's (run with -Dit.proxy=haproxy to check them), less its {@code @system-ca} entry (Fulcrum lists it only when
 * a line uses it).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslAuthorityCliIT {
    private static Path dir;
    private static Path admin;
    private static int port;
    /** A second bind line with the same ca-file and no crl-file (a CRL of one CA refuses the others' clients). */
    private static int noCrl;
    /** A bind line of a crt-list, to which a line verifying with a new CA file is added. */
    private static int listed;
    private static String list;
    private static FulcrumProcess proxy;
    private static String ca;
    private static String crl;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-sslca");
        admin = dir.resolve("admin.sock");
        TlsKit.authority(dir, "ca");
        TlsKit.authority(dir, "ca2");
        TlsKit.signed(dir, "server", "server.test");
        TlsKit.signed(dir, "client", "client.test");
        TlsKit.signed(dir, "revoked", "revoked.test");
        TlsKit.certificate(dir, "other", "rsa:2048", "other.test", "ca2");
        Files.move(TlsKit.crl(dir), dir.resolve("crl0.pem"));
        TlsKit.crl(dir, "revoked");
        ca = dir.resolve("ca.pem").toString();
        crl = dir.resolve("crl0.pem").toString();
        port = freePort();
        noCrl = freePort();
        listed = freePort();
        list = dir.resolve("list.txt").toString();
        Files.writeString(Path.of(list), dir.resolve("server.pem") + "\n");
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d ssl crt %s verify required ca-file %s crl-file %s
                    bind 127.0.0.1:%d ssl crt %s verify required ca-file %s
                    bind 127.0.0.1:%d ssl crt-list %s
                    http-request return status 200 content-type text/plain lf-string "cn=%%[ssl_c_s_dn(CN)]"
                """.formatted(admin, port, dir.resolve("server.pem"), ca, crl, noCrl, dir.resolve("server.pem"), ca, listed, list), port);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
    }

    private static String cli(String line) throws Exception {
        return TlsKit.cli(admin, line);
    }

    private static String file(String name) throws Exception {
        return Files.readString(dir.resolve(name));
    }

    /** curl's answer with {@code cert}'s certificate and key: the body and the status, 000 when refused. */
    private static String curl(String cert) throws Exception {
        return curl(port, cert);
    }

    private static String curl(int port, String cert) throws Exception {
        return curl(port, cert, "127.0.0.1");
    }

    /** @param host the name asked for (SNI), connecting to 127.0.0.1 */
    private static String curl(int port, String cert, String host) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-sk", "--max-time", "10", "-w", " code=%{http_code}",
                "--cert", dir.resolve(cert + ".crt").toString(), "--key", dir.resolve(cert + ".key").toString(),
                "--resolve", host + ":" + port + ":127.0.0.1"));
        cmd.add("https://" + host + ":" + port + "/");
        return TlsKit.run(dir, "", cmd.toArray(String[]::new));
    }

    /** A JDK connection presenting {@code cert}'s certificate, handshake done. */
    private static SSLSocket connect(int port, String cert) throws Exception {
        TlsKit.run(dir, "", "openssl", "pkcs12", "-export", "-in", cert + ".crt", "-inkey", cert + ".key", "-out", cert + ".p12",
                "-passout", "pass:test");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve(cert + ".p12"))) {
            ks.load(in, "test".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "test".toCharArray());
        SSLSocket s = (SSLSocket) TlsKit.trustAll(kmf.getKeyManagers()).getSocketFactory().createSocket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }

    /** A keep-alive request on an open connection: the answer's body. */
    private static String request(SSLSocket s) throws Exception {
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        byte[] buf = new byte[4096];
        StringBuilder b = new StringBuilder();
        while (!b.toString().contains("cn=") || !b.toString().endsWith(".test")) {
            int n = s.getInputStream().read(buf);
            if (n < 0) {
                break;
            }
            b.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
        return b.substring(b.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void aCommittedCaFileDecidesTheNextHandshakes() throws Exception {
        assertThat(curl(noCrl, "client")).isEqualTo("cn=client.test code=200");
        assertThat(curl(noCrl, "other")).isEqualTo(" code=000");
        assertThat(cli("set ssl ca-file " + ca + " <<\n" + file("ca2.pem"))).isEqualTo("transaction created for CA " + ca + "!\n\n");
        assertThat(cli("show ssl ca-file")).isEqualTo("# transaction\n*" + ca + " - 1 certificate(s)\n# filename\n" + ca + " - 1 certificate(s)\n\n");
        assertThat(cli("show ssl ca-file *" + ca)).contains("Filename: *" + ca + "\nStatus: Unused\n \nCertificate #1:\n", "Subject: /CN=ca2 test CA\n");
        assertThat(curl(noCrl, "other")).isEqualTo(" code=000"); // not before the commit
        try (SSLSocket open = connect(noCrl, "client")) {
            assertThat(request(open)).isEqualTo("cn=client.test");
            assertThat(cli("commit ssl ca-file " + ca)).isEqualTo("Committing " + ca + "..\nSuccess!\n\n");
            assertThat(curl(noCrl, "other")).isEqualTo("cn=other.test code=200");
            assertThat(curl(noCrl, "client")).isEqualTo(" code=000");
            // The connection verified before keeps working.
            assertThat(request(open)).isEqualTo("cn=client.test");
        }
        assertThat(cli("show ssl ca-file " + ca)).contains("Status: Used\n", "Subject: /CN=ca2 test CA\n").doesNotContain("Certificate #2");
        // Both CAs: both clients.
        assertThat(cli("set ssl ca-file " + ca + " <<\n" + file("ca2.pem") + file("ca.pem"))).isEqualTo("transaction created for CA " + ca + "!\n\n");
        assertThat(cli("commit ssl ca-file " + ca)).isEqualTo("Committing " + ca + "..\nSuccess!\n\n");
        assertThat(curl(noCrl, "client")).isEqualTo("cn=client.test code=200");
        assertThat(curl(noCrl, "other")).isEqualTo("cn=other.test code=200");
        assertThat(cli("show ssl ca-file")).isEqualTo("# filename\n" + ca + " - 2 certificate(s)\n\n");
        assertThat(cli("show ssl ca-file " + ca + ":2")).startsWith("Filename: " + ca + "\nStatus: Used\n \nCertificate #2:\nSerial: ")
                .endsWith("Subject: /CN=ca test CA\nIssuer: /CN=ca test CA\n\n");
        assertThat(cli("show ssl ca-file " + ca + ":3")).isEqualTo("\n");
    }

    @Test
    void aCommittedCrlFileRevokesTheNextHandshakes() throws Exception {
        assertThat(curl("revoked")).isEqualTo("cn=revoked.test code=200");
        String serial = TlsKit.run(dir, "", "openssl", "x509", "-in", "revoked.crt", "-noout", "-serial").strip().substring(7);
        assertThat(cli("set ssl crl-file " + crl + " <<\n" + file("crl.pem"))).isEqualTo("transaction created for CRL " + crl + "!\n\n");
        assertThat(cli("show ssl crl-file")).isEqualTo("# transaction\n*" + crl + "\n# filename\n" + crl + "\n\n");
        assertThat(cli("show ssl crl-file *" + crl)).matches("(?s)Filename: \\*" + crl + "\nStatus: Unused\n \nCertificate Revocation List #1:\n"
                + "Version 2\nSignature Algorithm: sha256WithRSAEncryption\nIssuer: /CN=ca test CA\n"
                + "Last Update: [A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d \\d{4} GMT\nNext Update: [A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d \\d{4} GMT\n"
                + "Revoked Certificates:\n    Serial Number: " + serial + "\n        Revocation Date: [A-Z][a-z]{2} [ 123]\\d \\d\\d:\\d\\d:\\d\\d \\d{4} GMT\n\n");
        try (SSLSocket open = connect(port, "revoked")) {
            assertThat(request(open)).isEqualTo("cn=revoked.test");
            assertThat(cli("commit ssl crl-file " + crl)).isEqualTo("Committing " + crl + ".\nSuccess!\n\n");
            assertThat(curl("revoked")).isEqualTo(" code=000");
            assertThat(curl("client")).isEqualTo("cn=client.test code=200");
            assertThat(request(open)).isEqualTo("cn=revoked.test");
        }
        assertThat(cli("show ssl crl-file " + crl)).startsWith("Filename: " + crl + "\nStatus: Used\n \nCertificate Revocation List #1:\n")
                .contains("Revoked Certificates:\n    Serial Number: " + serial + "\n");
        assertThat(cli("show ssl crl-file " + crl + ":2")).isEqualTo("Filename: " + crl + "\nStatus: Used\n\n");
        // Back to the empty list.
        assertThat(cli("set ssl crl-file " + crl + " <<\n" + file("crl0.pem"))).isEqualTo("transaction created for CRL " + crl + "!\n\n");
        assertThat(cli("commit ssl crl-file " + crl)).isEqualTo("Committing " + crl + ".\nSuccess!\n\n");
        assertThat(cli("show ssl crl-file " + crl)).endsWith("No Revoked Certificates.\n\n");
        assertThat(curl("revoked")).isEqualTo("cn=revoked.test code=200");
    }

    @Test
    void newFilesAndTransactionRules() throws Exception {
        String n = dir.resolve("new-ca.pem").toString();
        assertThat(cli("new ssl ca-file " + n)).isEqualTo("New CA file created '" + n + "'!\n\n");
        assertThat(cli("new ssl ca-file " + n)).isEqualTo("CA file '" + n + "' already exists!\n\n");
        assertThat(cli("show ssl ca-file " + n)).isEqualTo("\n");
        assertThat(cli("set ssl ca-file " + n + " <<\n" + file("ca2.pem"))).isEqualTo("transaction created for CA " + n + "!\n\n");
        assertThat(cli("set ssl ca-file " + ca + " <<\n" + file("ca.pem")))
                .isEqualTo("The ongoing transaction is about '" + n + "' but you are trying to set '" + ca + "'\nCan't update " + ca + "!\n\n");
        assertThat(cli("set ssl ca-file " + n + " <<\n" + file("ca.pem"))).isEqualTo("transaction updated for CA " + n + "!\n\n");
        assertThat(cli("commit ssl ca-file " + ca)).isEqualTo("The ongoing transaction is about '" + n + "' but you are trying to set '" + ca
                + "'\nCan't commit " + ca + "!\n\n");
        assertThat(cli("abort ssl ca-file " + ca)).isEqualTo("The ongoing transaction is about '" + n
                + "' but you are trying to abort a transaction for '" + ca + "'\n\n");
        assertThat(cli("del ssl ca-file " + n)).isEqualTo("Can't remove the CA file: ongoing transaction for the CA file '" + n + "'\n\n");
        assertThat(cli("commit ssl ca-file " + n)).isEqualTo("Committing " + n + "\nSuccess!\n\n");
        assertThat(cli("show ssl ca-file " + n)).startsWith("Filename: " + n + "\nStatus: Unused\n \nCertificate #1:\n");
        assertThat(cli("del ssl ca-file " + n)).isEqualTo("CA file '" + n + "' deleted!\n\n");
        assertThat(cli("del ssl ca-file " + n)).isEqualTo("Can't remove the CA file: CA file '" + n + "' doesn't exist!\n\n\n");
        assertThat(cli("del ssl ca-file " + ca)).isEqualTo("Can't remove the CA file: CA file '" + ca + "' in use, can't be deleted!\n\n\n");

        String c = dir.resolve("new-crl.pem").toString();
        assertThat(cli("new ssl crl-file " + c)).isEqualTo("New CRL file created '" + c + "'!\n\n");
        assertThat(cli("show ssl crl-file " + c)).isEqualTo("Filename: " + c + "\nStatus: Empty\n\n");
        assertThat(cli("set ssl crl-file " + c + " <<\n" + file("crl.pem"))).isEqualTo("transaction created for CRL " + c + "!\n\n");
        assertThat(cli("abort ssl crl-file " + c)).isEqualTo("Transaction aborted for certificate '" + c + "'!\n\n");
        assertThat(cli("del ssl crl-file " + c)).isEqualTo("CRL file '" + c + "' deleted!\n\n");
        assertThat(cli("del ssl crl-file " + crl)).isEqualTo("Can't remove the CRL file: CRL file '" + crl + "' in use, can't be deleted!\n\n\n");
    }

    /** A new CA file, committed, then named by a crt-list line added at run time: that line's clients are verified with it. */
    @Test
    void aNewCaFileVerifiesTheClientsOfACrtListLine() throws Exception {
        String n = dir.resolve("listed-ca.pem").toString();
        String server = dir.resolve("server.pem").toString();
        assertThat(curl(listed, "other", "other.test")).isEqualTo("cn= code=200"); // no verification
        assertThat(cli("new ssl ca-file " + n)).isEqualTo("New CA file created '" + n + "'!\n\n");
        assertThat(cli("set ssl ca-file " + n + " <<\n" + file("ca2.pem"))).isEqualTo("transaction created for CA " + n + "!\n\n");
        assertThat(cli("commit ssl ca-file " + n)).isEqualTo("Committing " + n + "\nSuccess!\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + server + " [verify required ca-file " + n + "] other.test\n"))
                .isEqualTo("Inserting certificate '" + server + "' in crt-list '" + list + "'.\nSuccess!\n\n");
        assertThat(cli("show ssl ca-file " + n)).startsWith("Filename: " + n + "\nStatus: Used\n");
        assertThat(curl(listed, "other", "other.test")).isEqualTo("cn=other.test code=200");
        assertThat(curl(listed, "client", "other.test")).isEqualTo(" code=000");
        assertThat(curl(listed, "client", "127.0.0.1")).isEqualTo("cn= code=200"); // the first line: no verification
        assertThat(cli("del ssl ca-file " + n)).isEqualTo("Can't remove the CA file: CA file '" + n + "' in use, can't be deleted!\n\n\n");
        assertThat(cli("del ssl crt-list " + list + " " + server + ":2")).isEqualTo("Entry '" + server + "' deleted in crtlist '" + list + "'!\n\n");
        assertThat(cli("del ssl ca-file " + n)).isEqualTo("CA file '" + n + "' deleted!\n\n");
    }

    @Test
    void refusals() throws Exception {
        String nope = dir.resolve("nope.pem").toString();
        assertThat(cli("set ssl ca-file " + nope + " <<\n" + file("ca.pem")))
                .isEqualTo("Can't replace a CA file which is not referenced by the configuration!\nCan't update " + nope + "!\n\n");
        assertThat(cli("set ssl crl-file " + nope + " <<\n" + file("crl.pem")))
                .isEqualTo("Can't replace a CRL file which is not referenced by the configuration!\nCan't update " + nope + "!\n\n");
        assertThat(cli("set ssl ca-file " + ca + " <<\ngarbage\n")).isEqualTo("Invalid payload\nCan't update " + ca + "!\n\n");
        assertThat(cli("set ssl crl-file " + crl + " <<\ngarbage\n")).isEqualTo("Invalid payload\nCan't update " + crl + "!\n\n");
        assertThat(cli("set ssl ca-file " + ca)).isEqualTo("'set ssl ca-file expects a filename and CAs as a payload\n\n");
        assertThat(cli("set ssl crl-file")).isEqualTo("'set ssl crl-file expects a filename and CRLs as a payload\n\n");
        assertThat(cli("commit ssl ca-file " + ca)).isEqualTo("No ongoing transaction! !\nCan't commit " + ca + "!\n\n");
        assertThat(cli("commit ssl crl-file")).isEqualTo("'commit ssl ca-file expects a filename\n\n");
        assertThat(cli("abort ssl crl-file " + crl)).isEqualTo("No ongoing transaction!\n\n");
        assertThat(cli("abort ssl ca-file")).isEqualTo("'abort ssl ca-file' expects a filename\n\n");
        assertThat(cli("new ssl crl-file")).isEqualTo("'new ssl crl-file' expects a filename\n\n");
        assertThat(cli("new ssl crl-file " + crl)).isEqualTo("CRL file '" + crl + "' already exists!\n\n");
        assertThat(cli("del ssl ca-file")).isEqualTo("'del ssl ca-file' expects a CA file name\n\n");
        assertThat(cli("del ssl crl-file")).isEqualTo("'del ssl crl-file' expects a CRL file name\n\n");
        assertThat(cli("show ssl ca-file " + nope)).isEqualTo("Can't display the CA file : Not found!\n\n");
        assertThat(cli("show ssl ca-file *" + ca)).isEqualTo("Can't display the CA file : Not found!\n\n");
        assertThat(cli("show ssl crl-file " + nope)).isEqualTo("Can't display the CRL file : Not found!\n\n");
        assertThat(cli("show ssl crl-file " + ca)).isEqualTo("Can't display the CRL file : Not found!\n\n");
        assertThat(cli("show ssl ca-file " + ca + ":0")).isEqualTo("wrong CA index after colons in '" + ca + ":0'!\n");
        assertThat(cli("show ssl crl-file " + crl + ":x")).isEqualTo("wrong CRL index after colons in '" + crl + ":x'!\n");
    }

    /** A crt-list line added at run time may name the CA and CRL files loaded, not read others from the disk (as haproxy). */
    @Test
    void aCrtListLineNamesOnlyLoadedFiles() throws Exception {
        String server = dir.resolve("server.pem").toString();
        String unloadedCa = dir.resolve("ca2.pem").toString();
        String unloadedCrl = dir.resolve("crl.pem").toString();
        assertThat(Path.of(unloadedCa)).exists();
        assertThat(Path.of(unloadedCrl)).exists();
        assertThat(cli("add ssl crt-list " + list + " <<\n" + server + " [verify optional ca-file " + unloadedCa + "] a.test\n"))
                .isEqualTo("Can't edit the crt-list: 'ca-file' : unable to load " + unloadedCa + "\n\n");
        assertThat(cli("add ssl crt-list " + list + " <<\n" + server + " [crl-file " + unloadedCrl + " ca-file " + ca + " verify optional] a.test\n"))
                .isEqualTo("Can't edit the crt-list: 'crl-file' : unable to load " + unloadedCrl + "\n\n");
    }
}
