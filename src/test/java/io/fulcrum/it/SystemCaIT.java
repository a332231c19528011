package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code ca-file @system-ca}: the system's trust store, here a directory the test fills and names with
 * {@code SSL_CERT_DIR} (as configuration.txt says; haproxy 2.6 itself reads only OpenSSL's default directory, so
 * these run on Fulcrum only). A server line verifies the origin's certificate with it, and the origin's bind line the
 * client certificate the server line presents; files are read as HAProxy reads a CA directory.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SystemCaIT {
    @TempDir
    Path dir;
    private Path store;

    @BeforeEach
    void certificates() throws Exception {
        assumeFalse(TcpProxyKit.haproxy(), "haproxy 2.6 does not read SSL_CERT_DIR");
        TlsKit.authority(dir, "ca");
        TlsKit.authority(dir, "other");
        TlsKit.signed(dir, "origin", "origin.test");
        TlsKit.signed(dir, "client", "client.test");
        store = Files.createDirectory(dir.resolve("store"));
        Files.copy(dir.resolve("ca.pem"), store.resolve("test-ca.crt"));
        // Not read: a hashed link's name, a dot file, another extension.
        Files.copy(dir.resolve("other.pem"), store.resolve("5a1b2c3d.0"));
        Files.copy(dir.resolve("other.pem"), store.resolve(".hidden.pem"));
        Files.copy(dir.resolve("other.pem"), store.resolve("other.txt"));
    }

    private FulcrumProcess start(Path certDir, List<String> args) throws Exception {
        return FulcrumProcess.start(List.of("env", "SSL_CERT_DIR=" + certDir, FulcrumProcess.home().resolve("bin/fulcrum").toString()), args);
    }

    private String config(int port, int origin, Path admin) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                    retries 0
                    default-server ssl verify required ca-file @system-ca
                frontend origin
                    bind 127.0.0.1:%d ssl crt %s verify required ca-file @system-ca
                    http-request return status 200 content-type text/plain lf-string "client=%%[ssl_c_s_dn(CN)]"
                listen p
                    bind 127.0.0.1:%d
                    server s 127.0.0.1:%d crt %s
                """.formatted(admin, origin, dir.resolve("origin.pem"), port, origin, dir.resolve("client.pem"));
    }

    @Test
    void theSystemsAuthoritiesVerifyServersAndClients() throws Exception {
        int port = freePort();
        Path admin = dir.resolve("admin.sock");
        try (FulcrumProcess p = start(store, List.of("-db", "-f", FulcrumProcess.config(config(port, freePort(), admin)).toString()))) {
            p.awaitPort(port, Duration.ofSeconds(20));
            try (Socket s = TcpProxyKit.connect(port)) {
                s.setSoTimeout(10_000);
                TcpProxyKit.send(s, "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
                String answer = TcpProxyKit.readToEof(s, 65536);
                assertThat(answer).startsWith("HTTP/1.1 200").endsWith("client=client.test");
            }
            assertThat(CliClient.send(admin, "show ssl ca-file")).isEqualTo("# filename\n@system-ca - 1 certificate(s)\n\n");
            assertThat(CliClient.send(admin, "show ssl ca-file @system-ca")).startsWith("Filename: @system-ca\nStatus: Used\n")
                    .contains("Subject: /CN=ca test CA\n").doesNotContain("Certificate #2");
        }
    }

    @Test
    void anAbsentOrEmptyStoreIsAnError() throws Exception {
        String cfg = FulcrumProcess.config(config(freePort(), freePort(), dir.resolve("admin.sock"))).toString();
        try (FulcrumProcess p = start(dir.resolve("absent"), List.of("-c", "-f", cfg))) {
            assertThat(p.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(p.stderr()).contains("Couldn't open the ca-file '@system-ca' (No such file or directory).",
                    "'ca-file' : unable to load @system-ca");
        }
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.copy(dir.resolve("other.pem"), empty.resolve("other.txt"));
        try (FulcrumProcess p = start(empty, List.of("-c", "-f", cfg))) {
            assertThat(p.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(p.stderr()).contains("Couldn't open the ca-file '@system-ca' (0 CA were loaded).");
        }
    }
}
