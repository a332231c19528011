package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code chroot}, {@code user} and {@code group}: once bound, the process is locked in the directory and runs as the
 * user and group, and still serves, logs and answers its stats socket. Passes against haproxy
 * ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProcessIdentityIT {

    @Test
    void chrootUserAndGroupApplyOnceBoundAndTheProcessStillServes() throws Exception {
        assumeTrue(uid(Path.of("/proc/self/status")) == 0, "only root can change its identity");
        Path jail = Files.createTempDirectory("fulcrum-jail");
        Path sock = Files.createTempDirectory("fulcrum-id").resolve("s.sock");
        int fe = freePort();
        Path cfg = FulcrumProcess.config("""
                global
                    chroot %s
                    user nobody
                    group nogroup
                    stats socket %s level admin
                defaults
                    mode http
                    timeout client 10s
                    log stdout format raw local0
                    option httplog
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "id %%[uuid]"
                """.formatted(jail, sock, fe));
        try (FulcrumProcess p = FulcrumProcess.serve(cfg, fe)) {
            Path status = Path.of("/proc/" + p.pid() + "/status");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (uid(status) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(field(status, "Uid:")).as("real, effective, saved and fs uid").isEqualTo("65534 65534 65534 65534");
            assertThat(field(status, "Gid:")).isEqualTo("65534 65534 65534 65534");
            assertThat(field(status, "Groups:")).as("supplementary groups dropped").isEmpty();
            assertThat(Files.readSymbolicLink(Path.of("/proc/" + p.pid() + "/root"))).isEqualTo(jail.toRealPath());

            try (HttpClientConn c = HttpClientConn.open(fe)) {
                HttpClientConn.Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.bodyText()).matches("id [0-9a-f-]{36}");
            }
            assertThat(CliClient.send(sock, "show info")).contains("Uptime_sec: ");
            long logged = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!p.stdout().contains("\"GET / HTTP/1.1\"") && System.nanoTime() < logged) {
                Thread.sleep(20);
            }
            assertThat(p.stdout()).as("the access log").contains(" fe fe/<NOSRV> ").contains("\"GET / HTTP/1.1\"");
        }
    }

    /** A reload ({@code -sf}) from inside a chroot, where no {@code kill} program exists, still finishes the old process. */
    @Test
    void aReloadLockedInAChrootStillFinishesTheOldProcess() throws Exception {
        assumeTrue(uid(Path.of("/proc/self/status")) == 0, "only root can chroot");
        Path jail = Files.createTempDirectory("fulcrum-jail");
        int fe = freePort();
        Path cfg = FulcrumProcess.config(TcpProxyKit.answering(fe, "chroot " + jail));
        try (FulcrumProcess old = FulcrumProcess.serve(cfg, fe);
             FulcrumProcess fresh = FulcrumProcess.start(List.of("-db", "-f", cfg.toString(), "-sf", Long.toString(old.pid())))) {
            assertThat(old.awaitExit(Duration.ofSeconds(20))).as(fresh.stderr()).isZero();
            assertThat(fresh.isAlive()).as(fresh.stderr()).isTrue();
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
            assertThat(fresh.stderr()).doesNotContain("Failed to send signal");
        }
    }

    @Test
    void aChrootThatFailsStopsTheStart() throws Exception {
        int fe = freePort();
        Path missing = Files.createTempDirectory("fulcrum-gone").resolve("none");
        Path cfg = FulcrumProcess.config(TcpProxyKit.answering(fe, "chroot " + missing));
        FulcrumProcess p = FulcrumProcess.start(List.of("-db", "-f", cfg.toString()));
        try {
            assertThat(p.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
            assertThat(p.stderr()).contains("Cannot chroot(" + missing + ").");
        } finally {
            p.close();
        }
    }

    /** A second user/uid, group/gid or chroot line is HAProxy's alert that does not fail the check: the first one counts. */
    @Test
    void aSecondIdentityLineIsReportedAndIgnored() throws Exception {
        Path cfg = FulcrumProcess.config("""
                global
                    user nobody
                    uid 5
                    gid abc
                    group nogroup
                    chroot /a
                    chroot /b
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:18080
                    http-request return status 200
                """);
        FulcrumRun r = FulcrumRun.in(cfg.getParent(), "-c", "-f", "test.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        // (a gid that is not a number is 0: the group line after it is not a second one)
        Expected.of("[ALERT]    (PID) : config : parsing [test.cfg:3] : user/uid already specified. Continuing.",
                "[WARNING]  (PID) : config : parsing [test.cfg:4] :  gid: string 'abc' is not a number.",
                "   | You might want to use the 'group' parameter to use a system group name.",
                "[ALERT]    (PID) : config : parsing [test.cfg:7] : 'chroot' already specified. Continuing.",
                "!group/gid").assertIn(r.maskedStderr(), r.describe());
    }

    private static int uid(Path status) throws Exception {
        return Integer.parseInt(field(status, "Uid:").split(" ")[1]);
    }

    /** A field of /proc/PID/status, its values separated by single spaces. */
    private static String field(Path status, String name) throws Exception {
        return Files.readAllLines(status).stream().filter(l -> l.startsWith(name)).findFirst().orElseThrow()
                .substring(name.length()).strip().replaceAll("\\s+", " ");
    }
}
