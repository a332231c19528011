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

/**
 * What tools/cli-diff.py found Fulcrum answering otherwise than haproxy 2.6, and that no other feature's test holds:
 * a TCP session's server connection counted in {@code show servers conn}, a peer without tables in {@code show peers}.
 * Expected outputs are haproxy 2.6's (run with -Dit.proxy=haproxy to check them against it).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CliSweepIT {
    private static Path admin;
    private static int fe;
    private static Origin origin;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        admin = Files.createTempDirectory("fulcrum-sweep").resolve("admin.sock");
        fe = freePort();
        origin = Origin.start(Origin.ECHO);
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                    localpeer local
                defaults
                    mode tcp
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    server s1 127.0.0.1:%d
                peers pr
                    peer local 127.0.0.1:%d
                """.formatted(admin, fe, origin.port(), freePort()), fe);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        origin.close();
    }

    /**
     * A TCP session's server connection counts in the most used at once and the estimated need, not in those used
     * now: as HAProxy's, it is counted at its creation and released at once, being private to its session.
     */
    @Test
    void aTcpSessionsServerConnectionCountsInTheNeed() throws Exception {
        try (Socket s = TcpProxyKit.connect(fe)) {
            assertThat(TcpProxyKit.echo(s, "ping")).isEqualTo("ping");
            assertThat(CliClient.send(admin, "show servers conn be")).endsWith("\nbe/s1 3/1 127.0.0.1 " + origin.port()
                    + " - 5000 0 1 1 0 0 -1 0 0 0\n\n");
        }
    }

    /** A peer of a section without stick tables has no "shared tables:" line. */
    @Test
    void aPeerWithoutTablesListsNone() throws Exception {
        String peers = CliClient.send(admin, "show peers");
        assertThat(peers).contains("id=local(local,inactive)").doesNotContain("shared tables");
    }
}
