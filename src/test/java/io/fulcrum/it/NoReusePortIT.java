package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code noreuseport}: listening sockets without SO_REUSEPORT, so a second process cannot bind the same address; a
 * reload ({@code -sf}) still works: the new process asks the old one to let go of its addresses (SIGTTOU), binds,
 * then finishes it. Passes against haproxy ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NoReusePortIT {

    private static String config(int port, String global) {
        return TcpProxyKit.answering(port, global);
    }

    @Test
    void aSecondProcessCannotBindTheSameAddress() throws Exception {
        int port = freePort();
        try (FulcrumProcess first = TcpProxyKit.serve(config(port, "noreuseport"), port)) {
            FulcrumProcess second = TcpProxyKit.start(config(port, "noreuseport"));
            try {
                assertThat(second.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
                assertThat(second.stderr()).containsPattern("frontend fe: cannot bind socket \\(Address already in use\\) .*\\[127.0.0.1:"
                        + port + "]");
            } finally {
                second.close();
            }
            assertThat(first.isAlive()).isTrue();
        }
    }

    @Test
    void withSoReusePortASecondProcessBindsBesideTheFirst() throws Exception {
        int port = freePort();
        try (FulcrumProcess first = TcpProxyKit.serve(config(port, ""), port);
             FulcrumProcess second = TcpProxyKit.start(config(port, ""))) {
            Thread.sleep(1500);
            assertThat(second.isAlive()).as(second.stderr()).isTrue();
        }
    }

    @Test
    void aReloadMakesTheOldProcessLetGoOfItsAddress() throws Exception {
        int port = freePort();
        try (FulcrumProcess old = TcpProxyKit.serve(config(port, "noreuseport"), port);
             FulcrumProcess fresh = TcpProxyKit.start(config(port, "noreuseport"), "-sf", Long.toString(old.pid()))) {
            assertThat(old.awaitExit(Duration.ofSeconds(30))).as(fresh.stderr()).isZero();
            assertThat(fresh.isAlive()).as(fresh.stderr()).isTrue();
            try (HttpClientConn c = HttpClientConn.open(port)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
        }
    }

    /** The same between a master's workers: the new worker makes the old one let go of the address. */
    @Test
    void aMasterReloadMakesTheOldWorkerLetGoOfItsAddress() throws Exception {
        int port = freePort();
        try (FulcrumProcess master = TcpProxyKit.start(config(port, "noreuseport\nmaster-worker"))) {
            TcpProxyKit.awaitListening(master, TcpProxyKit.LOCALHOST, port, Duration.ofSeconds(60));
            List<Long> first = workers(master);
            assertThat(first).hasSize(1);
            master.signal("USR2");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while ((workers(master).contains(first.getFirst()) || workers(master).isEmpty()) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(workers(master)).as(master.stderr()).hasSize(1).doesNotContain(first.getFirst());
            TcpProxyKit.awaitListening(master, TcpProxyKit.LOCALHOST, port, Duration.ofSeconds(10));
            try (HttpClientConn c = HttpClientConn.open(port)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            }
            assertThat(master.stderr()).doesNotContain("cannot bind socket");
        }
    }

    private static List<Long> workers(FulcrumProcess master) {
        return ProcessHandle.of(master.pid()).map(h -> h.children().map(ProcessHandle::pid).toList()).orElse(List.of());
    }
}
