package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.fulcrum.it.PeersKit.await;
import static io.fulcrum.it.PeersKit.track;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Peers over TLS (configuration.txt 3.5: {@code ssl}, {@code crt}, {@code ca-file}, {@code verify} on the peer lines):
 * each peer listens with a certificate and asks for the other's, and connects with its own; two Fulcrum processes,
 * and a Fulcrum with the real haproxy 2.6, replicate both ways; a peer whose certificate another CA signed is refused;
 * a reload teaches the new process over TLS.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PeersTlsIT {
    private static final String HAPROXY = System.getProperty("it.haproxy", "/usr/sbin/haproxy");
    private static Path dir;
    private final List<FulcrumProcess> started = new ArrayList<>();

    @BeforeAll
    static void certificates() throws Exception {
        dir = Files.createTempDirectory("fulcrum-peers-tls");
        TlsKit.authority(dir, "ca");
        TlsKit.signed(dir, "peer", "peer.test");
        TlsKit.authority(dir, "other");
        TlsKit.certificate(dir, "rogue", "rsa:2048", "rogue.test", "other");
    }

    @AfterEach
    void stop() throws Exception {
        for (FulcrumProcess p : started) {
            p.close();
        }
    }

    /** Two peers "a" and "b", both with TLS; {@code ca} is the authority this process trusts for the other's certificate. */
    private static Path config(String socket, int front, int a, int b, String cert, String ca) throws Exception {
        String tls = "ssl crt " + dir.resolve(cert + ".pem") + " ca-file " + dir.resolve(ca + ".pem") + " verify required";
        return FulcrumProcess.config(PeersKit.head(dir.resolve(socket)) + """
                peers mesh
                    peer a 127.0.0.1:%d %s
                    peer b 127.0.0.1:%d %s
                frontend fe
                    bind 127.0.0.1:%d
                    stick-table type string len 16 size 100 expire 60s peers mesh store http_req_cnt
                    http-request track-sc0 req.hdr(x-key)
                    http-request return status 200
                """.formatted(a, tls, b, tls, front));
    }

    private FulcrumProcess fulcrum(Path cfg, String name, int front) throws Exception {
        FulcrumProcess p = FulcrumProcess.start(List.of("-db", "-f", cfg.toString(), "-L", name));
        started.add(p);
        TcpProxyKit.awaitListening(p, "127.0.0.1", front, Duration.ofSeconds(20));
        return p;
    }

    private FulcrumProcess haproxy(Path cfg, String name, int front) throws Exception {
        FulcrumProcess p = FulcrumProcess.start(List.of(HAPROXY), List.of("-db", "-f", cfg.toString(), "-L", name));
        started.add(p);
        TcpProxyKit.awaitListening(p, "127.0.0.1", front, Duration.ofSeconds(20));
        return p;
    }

    /** An entry tracked on the Fulcrum "a" reaches "b", and back; their session runs over TLS. */
    private static void replicateBothWays(String socketA, int frontA, String socketB, int frontB) throws Exception {
        track(frontA, "from-a");
        await(dir.resolve(socketB), "fe", "key=from-a use=0 exp=\\d+ http_req_cnt=1");
        track(frontB, "from-b");
        track(frontB, "from-b");
        await(dir.resolve(socketA), "fe", "key=from-b use=0 exp=\\d+ http_req_cnt=2");
        String peers = CliClient.send(dir.resolve(socketA), "show peers");
        assertThat(peers).contains("id=b(remote,active)").contains("last_status=ESTA");
        // Only the side that accepted the session shows its connection; which one did depends on who connected first.
        String accepted = peers.contains("xprt=") ? peers : CliClient.send(dir.resolve(socketB), "show peers");
        assertThat(accepted).contains("xprt=SSL src=");
    }

    @Test
    void twoFulcrumProcessesReplicateOverTls() throws Exception {
        int a = freePort();
        int b = freePort();
        int frontA = freePort();
        int frontB = freePort();
        fulcrum(config("a.sock", frontA, a, b, "peer", "ca"), "a", frontA);
        fulcrum(config("b.sock", frontB, a, b, "peer", "ca"), "b", frontB);
        replicateBothWays("a.sock", frontA, "b.sock", frontB);
    }

    @Test
    void fulcrumAndHaproxyReplicateOverTls() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(HAPROXY)), "haproxy is not installed");
        int a = freePort();
        int b = freePort();
        int frontA = freePort();
        int frontB = freePort();
        fulcrum(config("ful.sock", frontA, a, b, "peer", "ca"), "a", frontA);
        haproxy(config("hap.sock", frontB, a, b, "peer", "ca"), "b", frontB);
        replicateBothWays("ful.sock", frontA, "hap.sock", frontB);
    }

    @Test
    void aPeerWithACertificateOfAnotherAuthorityIsRefused() throws Exception {
        int a = freePort();
        int b = freePort();
        int frontA = freePort();
        int frontB = freePort();
        fulcrum(config("a.sock", frontA, a, b, "peer", "ca"), "a", frontA);
        fulcrum(config("b.sock", frontB, a, b, "rogue", "ca"), "b", frontB);
        track(frontB, "from-rogue");
        track(frontA, "from-a");
        Thread.sleep(6000); // more than a reconnect period: both have tried
        assertThat(PeersKit.table(dir.resolve("a.sock"), "fe")).doesNotContain("from-rogue");
        assertThat(PeersKit.table(dir.resolve("b.sock"), "fe")).doesNotContain("key=from-a");
        assertThat(CliClient.send(dir.resolve("a.sock"), "show peers")).doesNotContain("last_status=ESTA");
    }

    /** On a reload, the old process connects to its own peer address with its own TLS options to teach the new one. */
    @Test
    void aReloadTeachesTheNewProcessOverTls() throws Exception {
        int a = freePort();
        int b = FulcrumProcess.refusedPort();
        int front = freePort();
        FulcrumProcess old = fulcrum(config("old.sock", front, a, b, "peer", "ca"), "a", front);
        track(front, "before-reload");
        FulcrumProcess fresh = FulcrumProcess.start(List.of("-db", "-f", config("new.sock", front, a, b, "peer", "ca").toString(),
                "-L", "a", "-sf", Long.toString(old.pid())));
        started.add(fresh);
        assertThat(old.awaitExit(Duration.ofSeconds(30))).as(old.stderr()).isZero();
        await(dir.resolve("new.sock"), "fe", "key=before-reload use=0 exp=\\d+ http_req_cnt=1");
    }

    /** The local peer listening with TLS but connecting to itself without (on a reload) is warned of, in haproxy's words. */
    @Test
    void aLocalPeerListeningWithTlsButConnectingWithoutIsWarned() throws Exception {
        Path cfg = FulcrumProcess.config("""
                peers mesh
                    bind 127.0.0.1:%d ssl crt %s
                    server a
                    server b 127.0.0.1:%d ssl verify none
                """.formatted(freePort(), dir.resolve("peer.pem"), freePort()));
        FulcrumProcess ful = FulcrumProcess.run("-c", "-f", cfg.toString(), "-L", "a");
        assertThat(ful.exitValue()).as(ful.stderr()).isZero();
        String warning = "config : Peers section 'a': local peer have a SSL listener and a non-SSL server configured at line " + cfg + ":2.";
        assertThat(ful.stderr()).contains(warning);
        if (Files.isExecutable(Path.of(HAPROXY))) {
            FulcrumProcess hap = FulcrumProcess.start(List.of(HAPROXY), List.of("-c", "-f", cfg.toString(), "-L", "a"));
            started.add(hap);
            hap.awaitExit(Duration.ofSeconds(30));
            assertThat(hap.stderr()).contains(warning);
        }
    }

    @Test
    void optionsOtherThanTlsAreRefused() throws Exception {
        Path cfg = FulcrumProcess.config("""
                peers mesh
                    peer a 127.0.0.1:%d
                    peer b 127.0.0.1:%d ssl verify none weight 3
                """.formatted(freePort(), freePort()));
        FulcrumProcess p = FulcrumProcess.run("-c", "-f", cfg.toString(), "-L", "a");
        assertThat(p.exitValue()).isEqualTo(1);
        // (haproxy 2.6 names a peers section's server lines 'server (null)/<name>' in its messages)
        assertThat(p.stderr()).contains(":3] : 'server (null)/b' : 'weight' is not supported in peers sections by Fulcrum");
    }
}
