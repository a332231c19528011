package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * HAProxy's "local peer" resync: on a reload ({@code -sf}), the old process connects to its own peer address, where the
 * new process listens now, teaches it every entry of its shared tables, and exits once the new process confirmed; the
 * new one starts with the entries, their counters and their remaining expiry. With {@code -st} the old process stops
 * at once and the new one, after waiting for it in vain, goes on without the entries. With a remote peer (haproxy), the
 * new process goes on replicating with it.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PeersReloadIT {
    private static final String HAPROXY = System.getProperty("it.haproxy", "/usr/sbin/haproxy");
    private final List<FulcrumProcess> started = new ArrayList<>();
    private Path dir;
    private int peer;
    private int front;
    /** The port of a haproxy peer, 0 for none. */
    private int hapPeer;

    @BeforeEach
    void ports() throws Exception {
        dir = Files.createTempDirectory("fulcrum-peers-reload");
        peer = freePort();
        front = freePort();
    }

    @AfterEach
    void stop() throws Exception {
        for (FulcrumProcess p : started) {
            p.close();
        }
    }

    /**
     * The same configuration but for the CLI socket, so that each process can be asked apart, and the frontend's port;
     * with a remote peer "hap" when {@code hapPeer} is set.
     */
    private Path config(String socket, int frontPort) throws Exception {
        String remote = hapPeer == 0 ? "" : "\n    peer hap 127.0.0.1:" + hapPeer;
        return FulcrumProcess.config(PeersKit.head(dir.resolve(socket)) + """
                peers mesh
                    peer ful 127.0.0.1:%d%s
                    table counts type integer size 10 expire 60s store gpc(2),http_req_cnt
                frontend fe
                    bind 127.0.0.1:%d
                    stick-table type string len 16 size 100 expire 60s peers mesh store http_req_cnt,http_req_rate(10s),gpt0
                    http-request track-sc0 req.hdr(x-key)
                    http-request track-sc1 int(7) table mesh/counts
                    http-request sc-inc-gpc(1,1)
                    http-request return status 200
                """.formatted(peer, remote, frontPort));
    }

    private FulcrumProcess start(String socket, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("-db", "-f", config(socket, front).toString(), "-L", "ful"));
        args.addAll(List.of(extra));
        FulcrumProcess p = FulcrumProcess.start(args);
        started.add(p);
        return p;
    }

    private void track(String key) throws Exception {
        PeersKit.track(front, key);
    }

    private String table(String socket, String table) throws Exception {
        return PeersKit.table(dir.resolve(socket), table);
    }

    private Matcher await(String socket, String table, String line) throws Exception {
        return PeersKit.await(dir.resolve(socket), table, line);
    }

    @Test
    void theOldProcessTeachesTheNewOneItsEntriesOnAReload() throws Exception {
        FulcrumProcess old = start("old.sock");
        TcpProxyKit.awaitListening(old, "127.0.0.1", front, Duration.ofSeconds(20));
        track("alpha");
        track("alpha");
        track("beta");
        Thread.sleep(1500); // the entries age: the new process gets what remains of their expiry
        FulcrumProcess fresh = start("new.sock", "-sf", Long.toString(old.pid()));
        assertThat(old.awaitExit(Duration.ofSeconds(30))).as(old.stderr()).isZero();
        Matcher m = await("new.sock", "fe", "key=alpha use=0 exp=(\\d+) gpt0=0 http_req_cnt=2 http_req_rate\\(10000\\)=\\d");
        assertThat(Long.parseLong(m.group(1))).isLessThan(59_000L);
        await("new.sock", "fe", "key=beta use=0 exp=\\d+ gpt0=0 http_req_cnt=1 ");
        await("new.sock", "mesh/counts", "key=7 use=0 exp=\\d+ http_req_cnt=3 gpc0=0 gpc1=3");
        // The new process goes on counting from there.
        track("alpha");
        await("new.sock", "fe", "key=alpha use=0 exp=\\d+ gpt0=0 http_req_cnt=3 ");
        assertThat(fresh.stderr()).doesNotContain("[ALERT]");

        // And teaches the entries to the next one in turn.
        FulcrumProcess third = start("third.sock", "-sf", Long.toString(fresh.pid()));
        assertThat(fresh.awaitExit(Duration.ofSeconds(30))).as(fresh.stderr()).isZero();
        await("third.sock", "fe", "key=alpha use=0 exp=\\d+ gpt0=0 http_req_cnt=3 ");
        await("third.sock", "mesh/counts", "key=7 use=0 exp=\\d+ http_req_cnt=4 ");
        assertThat(third.isAlive()).isTrue();
    }

    /** With haproxy as a remote peer: the new process has the old one's entries, and replicates with haproxy both ways. */
    @Test
    void aReloadGoesOnReplicatingWithHaproxy() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(HAPROXY)), "haproxy is not installed");
        hapPeer = freePort();
        int hapFront = freePort();
        FulcrumProcess hap = FulcrumProcess.start(List.of(HAPROXY), List.of("-db", "-f", config("hap.sock", hapFront).toString(), "-L", "hap"));
        started.add(hap);
        TcpProxyKit.awaitListening(hap, "127.0.0.1", hapFront, Duration.ofSeconds(20));
        FulcrumProcess old = start("old.sock");
        TcpProxyKit.awaitListening(old, "127.0.0.1", front, Duration.ofSeconds(20));
        track("from-old");
        await("hap.sock", "fe", "key=from-old use=0 ");
        start("new.sock", "-sf", Long.toString(old.pid()));
        assertThat(old.awaitExit(Duration.ofSeconds(30))).as(old.stderr()).isZero();
        await("new.sock", "fe", "key=from-old use=0 exp=\\d+ gpt0=0 http_req_cnt=1 ");
        PeersKit.track(hapFront, "from-hap");
        await("new.sock", "fe", "key=from-hap use=0 ");
        track("from-new");
        await("hap.sock", "fe", "key=from-new use=0 ");
    }

    @Test
    void aSoftStopWithoutSuccessorExitsAtOnce() throws Exception {
        FulcrumProcess alone = start("alone.sock");
        TcpProxyKit.awaitListening(alone, "127.0.0.1", front, Duration.ofSeconds(20));
        track("alpha");
        long t0 = System.nanoTime();
        alone.signal("USR1");
        assertThat(alone.awaitExit(Duration.ofSeconds(20))).as(alone.stderr()).isZero();
        // Nobody listens at the local peer's address any more: no lesson to wait for.
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void afterAHardReloadTheNewProcessStartsEmpty() throws Exception {
        FulcrumProcess old = start("old.sock");
        TcpProxyKit.awaitListening(old, "127.0.0.1", front, Duration.ofSeconds(20));
        track("alpha");
        FulcrumProcess fresh = start("new.sock", "-st", Long.toString(old.pid()));
        assertThat(old.awaitExit(Duration.ofSeconds(20))).as(old.stderr()).isZero();
        TcpProxyKit.awaitListening(fresh, "127.0.0.1", front, Duration.ofSeconds(20));
        Thread.sleep(500);
        assertThat(table("new.sock", "fe")).doesNotContain("key=alpha");
    }
}
