package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Stick-table replication with the real haproxy 2.6 as the other peer: one peers section, a Fulcrum ("ful") and a
 * haproxy ("hap") process; an entry tracked on one appears in {@code show table} on the other, both ways, in a table
 * shared by a proxy's {@code peers} and in a table of the peers section; a restarted peer learns every entry from the
 * other (the resync at start), with its remaining expiry.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PeersIT {
    private static final String HAPROXY = System.getProperty("it.haproxy", "/usr/sbin/haproxy");
    private static Path dir;
    private static int hapPeer;
    private static int fulPeer;
    private static int hapFront;
    private static int fulFront;
    private static FulcrumProcess hap;
    private static FulcrumProcess ful;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(Path.of(HAPROXY)), "haproxy is not installed");
        dir = Files.createTempDirectory("fulcrum-peers");
        hapPeer = freePort();
        fulPeer = freePort();
        hapFront = freePort();
        fulFront = freePort();
        hap = startHaproxy();
        ful = startFulcrum();
        awaitSteadySessions();
    }

    /**
     * Both sides connect at start and may collide (each replaces its session by the other's, then retries after a
     * random delay of up to 2 s, as HAProxy): the tests replicate in the steady state that follows, where each side
     * sees the other established, still so after the longest retry delay.
     */
    private static void awaitSteadySessions() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean steady = false;
        while (!steady) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("peer sessions not established:\n" + CliClient.send(dir.resolve("ful.sock"), "show peers")
                        + CliClient.send(dir.resolve("hap.sock"), "show peers"));
            }
            steady = established() && sleepThen(2500) && established();
            Thread.sleep(100);
        }
    }

    private static boolean established() throws Exception {
        return Pattern.compile("id=hap\\(remote,active\\) [^\n]*last_status=ESTA").matcher(
                CliClient.send(dir.resolve("ful.sock"), "show peers")).find()
                && Pattern.compile("id=ful\\(remote,active\\) [^\n]*last_status=ESTA").matcher(
                CliClient.send(dir.resolve("hap.sock"), "show peers")).find();
    }

    private static boolean sleepThen(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }

    @AfterAll
    static void stop() throws Exception {
        PeersKit.stop(hap, ful);
    }

    private static String config(String socket, int front) {
        return PeersKit.head(dir.resolve(socket)) + """
                peers mesh
                    peer hap 127.0.0.1:%d
                    peer ful 127.0.0.1:%d
                    table counts type integer size 10 expire 60s store gpc(2),gpc_rate(2,10s),http_req_cnt
                frontend fe
                    bind 127.0.0.1:%d
                    stick-table type string len 16 size 100 expire 60s peers mesh store http_req_cnt,http_req_rate(10s),conn_cur,server_id,gpt0
                    http-request track-sc0 req.hdr(x-key)
                    http-request track-sc1 int(7) table mesh/counts
                    http-request sc-inc-gpc(1,1)
                    http-request return status 200
                """.formatted(hapPeer, fulPeer, front);
    }

    private static FulcrumProcess startHaproxy() throws Exception {
        Path cfg = FulcrumProcess.config(config("hap.sock", hapFront));
        FulcrumProcess p = FulcrumProcess.start(List.of(HAPROXY), List.of("-db", "-f", cfg.toString(), "-L", "hap"));
        TcpProxyKit.awaitListening(p, "127.0.0.1", hapFront, Duration.ofSeconds(20));
        return p;
    }

    private static FulcrumProcess startFulcrum() throws Exception {
        FulcrumProcess p = FulcrumProcess.start(List.of("-db", "-f", FulcrumProcess.config(config("ful.sock", fulFront)).toString(),
                "-L", "ful"));
        TcpProxyKit.awaitListening(p, "127.0.0.1", fulFront, Duration.ofSeconds(20));
        return p;
    }

    private static void track(int port, String key) throws Exception {
        PeersKit.track(port, key);
    }

    private static Matcher await(String socket, String table, String line) throws Exception {
        return PeersKit.await(dir.resolve(socket), table, line);
    }

    @Test
    @Order(1)
    void entriesTrackedOnFulcrumReachHaproxy() throws Exception {
        track(fulFront, "from-ful");
        Matcher m = await("hap.sock", "fe", "key=from-ful use=0 exp=(\\d+) server_id=0 gpt0=0 conn_cur=0 http_req_cnt=1 "
                + "http_req_rate\\(10000\\)=1");
        assertThat(Long.parseLong(m.group(1))).isBetween(40_000L, 60_000L);
        await("hap.sock", "mesh/counts", "key=7 use=0 exp=\\d+ http_req_cnt=1 gpc0=0 gpc1=1 gpc0_rate\\(10000\\)=0 gpc1_rate\\(10000\\)=1");
    }

    @Test
    @Order(2)
    void entriesTrackedOnHaproxyReachFulcrum() throws Exception {
        track(hapFront, "from-hap");
        track(hapFront, "from-hap");
        await("ful.sock", "fe", "key=from-hap use=0 exp=\\d+ server_id=0 gpt0=0 conn_cur=0 http_req_cnt=2 http_req_rate\\(10000\\)=2");
        // The shared counter of the peers section's table: haproxy's values overwrite Fulcrum's, as between two haproxy.
        await("ful.sock", "mesh/counts", "key=7 use=0 exp=\\d+ http_req_cnt=3 gpc0=0 gpc1=3 gpc0_rate\\(10000\\)=0 gpc1_rate\\(10000\\)=3");
    }

    @Test
    @Order(3)
    void showPeers() throws Exception {
        String peers = CliClient.send(dir.resolve("ful.sock"), "show peers");
        assertThat(peers).containsPattern("^0x[0-9a-f]+: \\[[^]]+] id=mesh disabled=0 flags=0x[0-9a-f]+ resync_timeout=\\S+ task_calls=\\d+\n")
                .containsPattern("\n  0x[0-9a-f]+: id=ful\\(local,inactive\\) addr=127.0.0.1:" + fulPeer + " last_status=NONE last_hdshk=<NEVER>\n")
                .containsPattern("\n  0x[0-9a-f]+: id=hap\\(remote,active\\) addr=127.0.0.1:" + hapPeer + " last_status=ESTA last_hdshk=")
                .containsPattern("local_id=2 remote_id=\\d flags=0x0 remote_data=0x643\n")
                .containsPattern("local_id=1 remote_id=\\d flags=0x0 remote_data=0x1800200\n")
                .containsPattern("table:0x[0-9a-f]+ id=mesh/counts update=\\d+ localupdate=\\d+ ");
        // The table lines of the peer's session come last declared first, as HAProxy lists them.
        assertThat(peers.indexOf("id=fe update=")).isLessThan(peers.indexOf("id=mesh/counts update="));
        assertThat(CliClient.send(dir.resolve("ful.sock"), "show peers nope")).isEqualTo("No such peers\n\n");
    }

    /**
     * As haproxy's: the section's flags tell the resync's history (no old process to learn from, a remote peer asked);
     * the remote peer is alive (a message came within a reconnect period); only the side that accepted the session shows its connection, the peer's address first.
     */
    @Test
    @Order(3)
    void showPeersFlagsAndConnectionAsHaproxy() throws Exception {
        String ful = CliClient.send(dir.resolve("ful.sock"), "show peers");
        String hap = CliClient.send(dir.resolve("hap.sock"), "show peers");
        Matcher m = Pattern.compile("id=mesh disabled=0 flags=0x([0-9a-f]+) ").matcher(ful);
        assertThat(m.find()).as(ful).isTrue();
        int flags = Integer.parseInt(m.group(1), 16);
        assertThat(flags & 0x6011).as(ful).isEqualTo(0x6011); // REQUESTED, REMOTEASSIGN, LOCALTIMEOUT, LOCAL
        assertThat(flags & 0xa00).as(ful).isNotZero(); // REMOTEFINISHED or REMOTEPARTIAL
        assertThat(ful).containsPattern("id=hap\\(remote,active\\)[^\n]*\n[^\n]*\n        flags=0x2000[0-9a-f]{4} appctx:");
        assertThat(ful.contains("xprt=")).as(ful + hap).isNotEqualTo(hap.contains("xprt="));
        String accepted = ful.contains("xprt=") ? ful : hap;
        int port = ful.contains("xprt=") ? fulPeer : hapPeer;
        assertThat(accepted).containsPattern("\n        xprt=RAW src=127.0.0.1:\\d+ addr=127.0.0.1:" + port + "\n");
    }

    /**
     * An established session's reconnect timer is the one that closes it when nothing comes: it runs from the last
     * message received (the peer sends a heartbeat every 3 s), so it is never past, on both sides as in haproxy.
     */
    @Test
    @Order(3)
    void anEstablishedPeersReconnectTimerRunsFromItsLastMessage() throws Exception {
        assertThat(CliClient.send(dir.resolve("ful.sock"), "show peers"))
                .containsPattern("id=hap\\(remote,active\\)[^\n]*\n        reconnect=[0-5]s heartbeat=[0-3]s ");
        assertThat(CliClient.send(dir.resolve("hap.sock"), "show peers"))
                .containsPattern("id=ful\\(remote,active\\)[^\n]*\n        reconnect=[0-5]s heartbeat=[0-3]s ");
    }

    /** A table's update counter counts the entries learned from a peer; its local update counter does not (haproxy's). */
    private static void learnedWithoutLocalUpdates(String socket) throws Exception {
        assertThat(CliClient.send(dir.resolve(socket), "show peers"))
                .containsPattern("table:0x[0-9a-f]+ id=fe update=[1-9]\\d* localupdate=0 commitupdate=0 ");
    }

    /**
     * Each side counts its session with the other as active and connected, as haproxy does, and as one of its jobs
     * besides its listeners and connections (haproxy's CurrConns leaves its CLI session out, Fulcrum's does not).
     */
    @Test
    @Order(3)
    void showInfoCountsThePeers() throws Exception {
        for (String socket : List.of("ful.sock", "hap.sock")) {
            String info = CliClient.send(dir.resolve(socket), "show info");
            assertThat(info).as(socket).contains("\nActivePeers: 1\nConnectedPeers: 1\n");
            // The CLI's own connection is a job but not among CurrConns, in both (HAProxy's unlimited listeners).
            assertThat(field(info, "Jobs")).as(info).isEqualTo(field(info, "Listeners") + field(info, "CurrConns") + 1 + 1);
        }
    }

    private static long field(String info, String name) {
        Matcher m = Pattern.compile("\n" + name + ": (\\d+)\n").matcher(info);
        assertThat(m.find()).as(info).isTrue();
        return Long.parseLong(m.group(1));
    }

    /**
     * The peer's table lines as haproxy keeps them from one session to the next: the table id and data types of the
     * peer's last definition, and until a new session begins the counts of updates received and acknowledged.
     */
    private static final String KEPT_DEFINITION = "remote_id=[1-9]\\d* flags=0x0 remote_data=0x643\n              ";

    @Test
    @Order(4)
    void restartedHaproxyLearnsFromFulcrum() throws Exception {
        hap.close();
        // haproxy's two updates were received and acknowledged: still shown once its session is gone (Fulcrum sees the
        // close a moment after haproxy's exit).
        Pattern kept = Pattern.compile(KEPT_DEFINITION + "last_acked=[1-9]\\d* last_pushed=\\d+ last_get=[1-9]\\d* ");
        Pattern gone = Pattern.compile("id=hap\\(remote,inactive\\)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String peers;
        do {
            peers = CliClient.send(dir.resolve("ful.sock"), "show peers");
        } while (!gone.matcher(peers).find() && System.nanoTime() < deadline);
        assertThat(peers).containsPattern(gone).containsPattern(kept);
        hap = startHaproxy();
        await("hap.sock", "fe", "key=from-ful use=0 exp=\\d+ .*http_req_cnt=1 ");
        await("hap.sock", "fe", "key=from-hap use=0 exp=\\d+ .*http_req_cnt=2 ");
        learnedWithoutLocalUpdates("hap.sock");
        // The restarted haproxy has nothing to push, so defines no table: its last definition stays, the counts restart.
        assertNewSessionKeptDefinition("ful.sock", "hap");
    }

    /** On {@code socket}, the session with {@code peer} is established and shows the definition kept, with counts at 0. */
    private static void assertNewSessionKeptDefinition(String socket, String peer) throws Exception {
        // A session may take more than one try (haproxy's side may see a collision and connect again): wait for it.
        Pattern established = Pattern.compile("id=" + peer + "\\(remote,active\\) [^\n]* last_status=ESTA ");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String peers;
        do {
            peers = CliClient.send(dir.resolve(socket), "show peers");
        } while (!established.matcher(peers).find() && System.nanoTime() < deadline);
        assertThat(peers).containsPattern(established)
                .containsPattern(KEPT_DEFINITION + "last_acked=0 last_pushed=\\d+ last_get=0 ");
    }

    @Test
    @Order(5)
    void restartedFulcrumLearnsFromHaproxy() throws Exception {
        ful.close();
        ful = startFulcrum();
        Matcher m = await("ful.sock", "fe", "key=from-hap use=0 exp=(\\d+) .*http_req_cnt=2 ");
        assertThat(Long.parseLong(m.group(1))).isLessThan(60_000L); // the remaining expiry haproxy sent, not a fresh one
        await("ful.sock", "fe", "key=from-ful use=0 exp=\\d+ .*http_req_cnt=1 ");
        learnedWithoutLocalUpdates("ful.sock");
        assertNewSessionKeptDefinition("hap.sock", "ful"); // haproxy, the survivor this time, as Fulcrum above
        // And the session goes on: a new entry on either side reaches the other.
        track(fulFront, "after-restart");
        await("hap.sock", "fe", "key=after-restart use=0 ");
    }
}
