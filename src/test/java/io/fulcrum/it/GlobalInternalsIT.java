package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The global keywords of the process's internals that change what can be observed: {@code grace} and
 * {@code close-spread-time} on a soft stop (SIGUSR1), {@code pp2-never-send-local} on the wire of the health checks,
 * {@code busy-polling} in the state of an idle process's threads, and the {@code -dV} flag. Every test passes against
 * HAProxy 2.6 too (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GlobalInternalsIT {

    /** A frontend that answers "stop=" and the stopping fetch itself. */
    private static String answering(int port, String global) {
        return """
                global
                %s
                defaults
                    mode http
                    timeout client 30s
                    timeout http-keep-alive 30s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200 content-type text/plain lf-string "stop=%%[stopping]"
                """.formatted(global.indent(4), port);
    }

    /** grace: SIGUSR1 turns the stopping fetch true at once, the listener keeps accepting until the grace ends. */
    @Test
    void graceKeepsTheListenersUntilItEnds() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = TcpProxyKit.serve(answering(fe, "grace 2s"), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).bodyText()).isEqualTo("stop=0");
            }
            long signalled = System.nanoTime();
            proxy.signal("USR1");
            Thread.sleep(300);
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                HttpClientConn.Response r = c.exchange(get("/"));
                assertThat(r.bodyText()).isEqualTo("stop=1");
                assertThat(r.head().connectionHas("close")).as("still keep-alive during the grace").isFalse();
            }
            assertThat(awaitRefused(fe, 10_000)).as("the listener closes once the grace ends").isTrue();
            assertThat(System.nanoTime() - signalled).as("not before the grace ends").isGreaterThan(TimeUnit.MILLISECONDS.toNanos(1800));
            assertThat(proxy.awaitExit(Duration.ofSeconds(10))).isZero();
        }
    }

    /** close-spread-time: the idle connections do not all close at once, but all within the window. */
    @Test
    void closeSpreadTimeSpreadsTheIdleClosings() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = TcpProxyKit.serve(answering(fe, "close-spread-time 3s"), fe)) {
            List<HttpClientConn> conns = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    HttpClientConn c = HttpClientConn.open(fe);
                    conns.add(c);
                    assertThat(c.exchange(get("/")).bodyText()).isEqualTo("stop=0");
                }
                long signalled = System.nanoTime();
                proxy.signal("USR1");
                List<CompletableFuture<Long>> closedAfter = new ArrayList<>();
                for (HttpClientConn c : conns) {
                    closedAfter.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            c.awaitClosed(6000);
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
                    }));
                }
                long latest = 0;
                for (CompletableFuture<Long> f : closedAfter) {
                    latest = Math.max(latest, f.get(10, TimeUnit.SECONDS));
                }
                // Eight draws in 3 s all under 400 ms: one chance in 10^7.
                assertThat(latest).as("the last idle connection's close, ms after SIGUSR1").isBetween(400L, 4500L);
                assertThat(proxy.awaitExit(Duration.ofSeconds(10))).isZero();
            } finally {
                for (HttpClientConn c : conns) {
                    c.close();
                }
            }
        }
    }

    /** close-spread-time infinite: the soft stop closes no connection; it serves on, keep-alive, until its timeout. */
    @Test
    void closeSpreadTimeInfiniteLeavesConnectionsOpen() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = TcpProxyKit.serve(answering(fe, "close-spread-time infinite").replace("http-keep-alive 30s",
                "http-keep-alive 2s"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).isEqualTo("stop=0");
            proxy.signal("USR1");
            Thread.sleep(800);
            HttpClientConn.Response r = c.exchange(get("/"));
            assertThat(r.bodyText()).isEqualTo("stop=1");
            assertThat(r.head().connectionHas("close")).as(r.head().raw()).isFalse();
            c.awaitClosed(5000); // its http-keep-alive timeout
            assertThat(proxy.awaitExit(Duration.ofSeconds(10))).isZero();
        }
    }

    /**
     * A health check of a send-proxy-v2 server sends a LOCAL command; with pp2-never-send-local, a PROXY command with
     * the check connection's addresses.
     */
    @Test
    void pp2NeverSendLocalOnTheChecksWire() throws Exception {
        byte[] signature = {0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a};
        byte[] local = checkHeader("");
        assertThat(Arrays.copyOf(local, 12)).isEqualTo(signature);
        assertThat(Arrays.copyOfRange(local, 12, 16)).as("LOCAL, no address").isEqualTo(new byte[] {0x20, 0x00, 0x00, 0x00});

        byte[] proxied = checkHeader("pp2-never-send-local");
        assertThat(Arrays.copyOfRange(proxied, 12, 16)).as("PROXY, TCP over IPv4").isEqualTo(new byte[] {0x21, 0x11, 0x00, 0x0c});
        assertThat(Arrays.copyOfRange(proxied, 16, 24)).as("from and to 127.0.0.1").isEqualTo(new byte[] {127, 0, 0, 1, 127, 0, 0, 1});
    }

    /** The first bytes a health check sends to a send-proxy-v2 server under {@code global}. */
    private static byte[] checkHeader(String global) throws Exception {
        int fe = freePort();
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(30_000);
            String config = """
                    global
                        %s
                    defaults
                        mode tcp
                        timeout client 10s
                        timeout server 10s
                        timeout connect 2s
                    listen app
                        bind 127.0.0.1:%d
                        server s1 127.0.0.1:%d send-proxy-v2 check inter 300
                    """.formatted(global, fe, server.getLocalPort());
            try (FulcrumProcess proxy = TcpProxyKit.serve(config, fe);
                 Socket check = server.accept()) {
                check.setSoTimeout(5000);
                InputStream in = check.getInputStream();
                byte[] header = in.readNBytes(16);
                int length = (header[14] & 0xff) << 8 | header[15] & 0xff;
                byte[] rest = in.readNBytes(length);
                byte[] all = Arrays.copyOf(header, 16 + rest.length);
                System.arraycopy(rest, 0, all, 16, rest.length);
                return all;
            }
        }
    }

    /**
     * busy-polling: the loop of an idle process never sleeps in epoll_wait, a thread of it is always running or
     * runnable; without it, the idle process sleeps. (Thread states rather than CPU time: the test machine is shared.)
     */
    @Test
    void busyPollingKeepsAnIdleLoopRunning() throws Exception {
        assertThat(runningSamples("busy-polling")).as("samples of 20 with a running thread, busy-polling").isGreaterThanOrEqualTo(18);
        assertThat(runningSamples("")).as("samples of 20 with a running thread, idle").isLessThan(10);
    }

    /** Of 20 samples over 1 s of an idle process with one thread, how many saw a thread of it running (state R). */
    private static int runningSamples(String global) throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = TcpProxyKit.serve(answering(fe, "nbthread 1\n" + global), fe)) {
            Thread.sleep(1500); // past the start's own work (the JVM's compilers)
            int running = 0;
            for (int i = 0; i < 20; i++) {
                if (anyThreadRunning(proxy.pid())) {
                    running++;
                }
                Thread.sleep(50);
            }
            return running;
        }
    }

    private static boolean anyThreadRunning(long pid) throws IOException {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    if (stat.charAt(stat.lastIndexOf(')') + 2) == 'R') {
                        return true;
                    }
                } catch (IOException gone) {
                    // a thread that ended meanwhile
                }
            }
        }
        return false;
    }

    /** -dV: a server's TLS without a CA file passes the check, as with ssl-server-verify none; without it, refused. */
    @Test
    void dashDVDisablesServerVerify() throws Exception {
        String config = """
                defaults
                    mode http
                    timeout client 10s
                    timeout server 10s
                    timeout connect 2s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    server s1 127.0.0.1:%d ssl
                """.formatted(freePort(), freePort());
        try (FulcrumProcess verifying = TcpProxyKit.start(config, "-c")) {
            assertThat(verifying.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(verifying.stderr()).contains("verify is enabled by default but no CA file specified");
        }
        try (FulcrumProcess notVerifying = TcpProxyKit.start(config, "-c", "-dV")) {
            assertThat(notVerifying.awaitExit(Duration.ofSeconds(60))).as(notVerifying.stderr()).isZero();
        }
    }

    /** Waits until connecting to {@code port} is refused; false if it still accepts after {@code maxMillis}. */
    private static boolean awaitRefused(int port, long maxMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        while (System.nanoTime() < end) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                Thread.sleep(50);
            } catch (ConnectException refused) {
                return true;
            } catch (IOException other) {
                Thread.sleep(50);
            }
        }
        return false;
    }
}
