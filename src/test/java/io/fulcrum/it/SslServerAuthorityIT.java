package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The CA and CRL files of {@code server} lines in the CLI (management.txt 9.3): listed by {@code show ssl ca-file} and
 * {@code show ssl crl-file}, replaced by {@code set}/{@code commit}, and the next connections to the server verify
 * its certificate with the new content. The origin is a bind line of the same configuration. Expected texts are
 * haproxy 2.6's (run with -Dit.proxy=haproxy), less its {@code @system-ca} entry (its httpclient loads it).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SslServerAuthorityIT {
    private static Path dir;
    private static Path admin;
    /** Through a server line with a client certificate (HAProxy 2.6 updates only those). */
    private static int port;
    /** Through a server line without one. */
    private static int plain;
    private static FulcrumProcess proxy;
    private static String ca;
    private static String caPlain;
    private static String crl;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fulcrum-srvca");
        admin = dir.resolve("admin.sock");
        TlsKit.authority(dir, "ca");
        TlsKit.authority(dir, "ca2");
        TlsKit.signed(dir, "origin", "origin.test");
        TlsKit.signed(dir, "client", "client.test");
        Files.move(TlsKit.crl(dir), dir.resolve("crl0.pem"));
        TlsKit.crl(dir, "origin");
        // The servers' files start with the wrong CA: nothing gets through until a commit.
        ca = Files.copy(dir.resolve("ca2.pem"), dir.resolve("server-ca.pem")).toString();
        caPlain = Files.copy(dir.resolve("ca2.pem"), dir.resolve("plain-ca.pem")).toString();
        crl = Files.copy(dir.resolve("crl0.pem"), dir.resolve("server-crl.pem")).toString();
        int origin = freePort();
        port = freePort();
        plain = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                    retries 0
                frontend origin
                    bind 127.0.0.1:%d ssl crt %s
                    http-request return status 200 content-type text/plain string ok
                listen p
                    bind 127.0.0.1:%d
                    http-reuse never
                    server s 127.0.0.1:%d ssl verify required ca-file %s crl-file %s crt %s
                listen q
                    bind 127.0.0.1:%d
                    http-reuse never
                    server s 127.0.0.1:%d ssl verify required ca-file %s check inter 200ms fall 1 rise 1
                """.formatted(admin, origin, dir.resolve("origin.pem"), port, origin, ca, crl, dir.resolve("client.pem"),
                plain, origin, caPlain), port);
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

    /** The status line's code of a request through {@code port}. */
    private static String status(int port) throws Exception {
        try (Socket s = TcpProxyKit.connect(port)) {
            s.setSoTimeout(10_000);
            TcpProxyKit.send(s, "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            return TcpProxyKit.readToEof(s, 65536).substring(9, 12);
        }
    }

    /** Whether the server of {@code q} reaches the state (a part of its {@code show servers state} line) in 10 s. */
    private static boolean awaitState(String state) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!cli("show servers state q").contains(state)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    @Test
    void theServersFilesAreListedAndCommitsReachTheNextConnections() throws Exception {
        assertThat(cli("show ssl ca-file")).isEqualTo("# filename\n" + caPlain + " - 1 certificate(s)\n" + ca + " - 1 certificate(s)\n\n");
        assertThat(cli("show ssl crl-file")).isEqualTo("# filename\n" + crl + "\n\n");
        assertThat(cli("show ssl ca-file " + ca)).startsWith("Filename: " + ca + "\nStatus: Used\n \nCertificate #1:\n")
                .contains("Subject: /CN=ca2 test CA\n");
        assertThat(cli("show ssl crl-file " + crl)).startsWith("Filename: " + crl + "\nStatus: Used\n");
        assertThat(status(port)).isEqualTo("503");

        assertThat(cli("set ssl ca-file " + ca + " <<\n" + file("ca.pem"))).isEqualTo("transaction created for CA " + ca + "!\n\n");
        assertThat(status(port)).isEqualTo("503"); // not before the commit
        assertThat(cli("commit ssl ca-file " + ca)).isEqualTo("Committing " + ca + ".\nSuccess!\n\n");
        assertThat(status(port)).isEqualTo("200");
        assertThat(cli("del ssl ca-file " + ca)).isEqualTo("Can't remove the CA file: CA file '" + ca + "' in use, can't be deleted!\n\n\n");

        // The CRL revoking the origin's certificate, then the empty one again.
        assertThat(cli("set ssl crl-file " + crl + " <<\n" + file("crl.pem"))).isEqualTo("transaction created for CRL " + crl + "!\n\n");
        assertThat(cli("commit ssl crl-file " + crl)).isEqualTo("Committing " + crl + ".\nSuccess!\n\n");
        assertThat(status(port)).isEqualTo("503");
        assertThat(cli("set ssl crl-file " + crl + " <<\n" + file("crl0.pem"))).isEqualTo("transaction created for CRL " + crl + "!\n\n");
        assertThat(cli("commit ssl crl-file " + crl)).isEqualTo("Committing " + crl + ".\nSuccess!\n\n");
        assertThat(status(port)).isEqualTo("200");
    }

    /**
     * HAProxy 2.6 lists the file of a line without {@code crt} as unused and its commit changes nothing: Fulcrum's
     * reaches the line's connections and its checks (the server comes up).
     */
    @Test
    void aLineWithoutClientCertificateIsUpdatedToo() throws Exception {
        assumeFalse(TcpProxyKit.haproxy(), "differences.md: HAProxy 2.6 updates only the server lines with a crt");
        assertThat(awaitState(" s 127.0.0.1 0 ")).isTrue(); // stopped: its checks fail
        assertThat(status(plain)).isEqualTo("503");
        assertThat(cli("show ssl ca-file " + caPlain)).startsWith("Filename: " + caPlain + "\nStatus: Used\n");
        assertThat(cli("set ssl ca-file " + caPlain + " <<\n" + file("ca.pem"))).isEqualTo("transaction created for CA " + caPlain + "!\n\n");
        assertThat(cli("commit ssl ca-file " + caPlain)).isEqualTo("Committing " + caPlain + ".\nSuccess!\n\n");
        assertThat(awaitState(" s 127.0.0.1 2 ")).isTrue(); // running: its checks pass
        assertThat(status(plain)).isEqualTo("200");
    }
}
