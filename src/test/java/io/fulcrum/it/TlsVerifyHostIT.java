package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code verifyhost} on a server line with {@code verify required} and no SNI: the server's certificate must name the
 * host (wildcards too), else the connection to it fails. A real TLS server; a plain client in mode tcp sees what the
 * server answered, or a closed connection. Also runs against HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TlsVerifyHostIT {
    @TempDir
    Path dir;

    private String config(int fe, int origin, String options) {
        return """
                defaults
                    mode tcp
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                listen p
                    bind 127.0.0.1:%d
                    server s 127.0.0.1:%d ssl verify required ca-file %s %s
                """.formatted(fe, origin, dir.resolve("ca.pem"), options);
    }

    /** What the server answered through the proxy ("" when the connection was closed). */
    private static String through(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        }
    }

    @Test
    void theCertificateMustNameTheHost() throws Exception {
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "origin", "origin.test", "*.wild.test");
        try (TlsOrigin origin = new TlsOrigin(dir, "origin", "hello")) {
            for (String host : new String[] {"origin.test", "ORIGIN.test", "x.wild.test"}) {
                int fe = freePort();
                try (FulcrumProcess p = serve(config(fe, origin.port(), "verifyhost " + host), fe)) {
                    assertThat(through(fe)).as(host).isEqualTo("hello");
                }
            }
            for (String host : new String[] {"other.test", "y.x.wild.test"}) {
                int fe = freePort();
                try (FulcrumProcess p = serve(config(fe, origin.port(), "verifyhost " + host), fe)) {
                    assertThat(through(fe)).as(host).isEmpty();
                }
            }
            // A CA file that does not vouch for it: OpenSSL's alert for the error, as HAProxy's (which resets the
            // connection right after it: this origin reads the reset first; tools/rules-diff.py compares the alerts)
            TlsKit.authority(dir, "other-ca");
            int other = freePort();
            try (FulcrumProcess p = serve(config(other, origin.port(), "").replace("ca.pem", "other-ca.pem"), other)) {
                assertThat(through(other)).isEmpty();
                if (!TcpProxyKit.haproxy()) {
                    long deadline = System.nanoTime() + 5_000_000_000L; // (the origin notes it on its own thread)
                    while (origin.failures().stream().noneMatch(f -> f.endsWith("alert: unknown_ca")) && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    assertThat(origin.failures()).anyMatch(f -> f.endsWith("alert: unknown_ca"));
                }
            }
            if (TcpProxyKit.haproxy()) {
                return; // HAProxy 2.6 documents no-verifyhost but does not know it
            }
            int fe = freePort();
            try (FulcrumProcess p = serve(config(fe, origin.port(), "verifyhost other.test no-verifyhost"), fe)) {
                assertThat(through(fe)).as("no-verifyhost: the CA alone").isEqualTo("hello");
            }
        }
    }
}
