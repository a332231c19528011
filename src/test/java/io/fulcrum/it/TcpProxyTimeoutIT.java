package io.fulcrum.it;

import io.fulcrum.it.TcpProxyKit.Blackhole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.HELLO;
import static io.fulcrum.it.TcpProxyKit.assertWritesFail;
import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static io.fulcrum.it.TcpProxyKit.readExactly;
import static io.fulcrum.it.TcpProxyKit.readHello;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timeouts of a {@code mode tcp} session (configuration.txt 4.2, "timeout ..."): each one closes an
 * idle connection after about its value, not before; the bounds are wide (correctness, not speed).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpProxyTimeoutIT {

    private static String config(int fe, int be, String timeouts) {
        return """
                defaults
                    mode tcp
                %s

                listen test
                    bind 127.0.0.1:%d
                    server s1 127.0.0.1:%d
                """.formatted(timeouts.indent(4), fe, be);
    }

    /** A listen section logging each session (tcplog) on stdout, with {@code timeouts}. */
    private static String logged(int fe, int be, String timeouts) {
        return """
                global
                    log stdout format raw local0
                defaults
                    mode tcp
                    log global
                    option tcplog
                    timeout connect 5s
                %s
                listen test
                    bind 127.0.0.1:%d
                    server s1 127.0.0.1:%d
                """.formatted(timeouts.indent(4), fe, be);
    }

    /** The total time (Tt) of the first session logged with termination state {@code state}. */
    private static long loggedTotal(FulcrumProcess proxy, String state) throws InterruptedException {
        Pattern line = Pattern.compile(" test/s1 \\d+/\\d+/(\\d+) \\d+ " + state + " ");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            Matcher m = line.matcher(proxy.stdout());
            if (m.find()) {
                return Long.parseLong(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no session logged " + state + " in:\n" + proxy.stdout());
    }

    /** Exchanges a message (the session is established both ways), then waits for the proxy to close it. */
    private static long idleMillisUntilClosed(int fe) throws Exception {
        try (Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            long idleSince = System.nanoTime();
            return millisSince(idleSince, awaitClosed(s, 10_000));
        }
    }

    @Test
    void timeoutClientClosesAnIdleConnection() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 500ms
                     timeout server 30s"""), fe)) {
            assertThat(idleMillisUntilClosed(fe)).isBetween(400L, 5000L);
        }
    }

    @Test
    void timeoutServerClosesAnIdleConnection() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 30s
                     timeout server 500ms"""), fe)) {
            assertThat(idleMillisUntilClosed(fe)).isBetween(400L, 5000L);
        }
    }

    /**
     * A server that answers at once and closes; the client stays silent and never closes. Its timeout counts from
     * the answer (what the proxy sent it refreshes it, as in HAProxy 2.6), not from when a check first saw the
     * bytes gone, which put the close up to one more timeout later.
     */
    @Test
    void aSilentClientLeftByItsServerTimesOutOnce() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(s -> s.getOutputStream().write(HELLO.getBytes(StandardCharsets.US_ASCII)));
             FulcrumProcess proxy = serve(logged(fe, origin.port(), "timeout client 2s\ntimeout server 30s"), fe);
             Socket s = connect(fe)) {
            assertThat(readToEof(s, 1024)).isEqualTo(HELLO);
            assertThat(loggedTotal(proxy, "cD")).isBetween(1900L, 3500L);
        }
    }

    /**
     * A server that answers at once and stays open, a client that stays silent: the client's timeout only shuts its
     * side for reading (its FIN goes to the server), and the session ends at the server's timeout, counted from its
     * answer, logged {@code cD}: as HAProxy 2.6, where a read timeout is a half-close.
     */
    @Test
    void aClientTimeoutShutsItsSideOnlyAndTheServerTimeoutEndsTheSession() throws Exception {
        int fe = freePort();
        CountDownLatch release = new CountDownLatch(1);
        try (Origin origin = Origin.start(s -> {
                 s.getOutputStream().write(HELLO.getBytes(StandardCharsets.US_ASCII));
                 release.await(30, TimeUnit.SECONDS);
             });
             FulcrumProcess proxy = serve(logged(fe, origin.port(), "timeout client 1s\ntimeout server 4s"), fe);
             Socket s = connect(fe)) {
            assertThat(text(readExactly(s, HELLO.length()))).isEqualTo(HELLO);
            long t0 = System.nanoTime();
            assertThat(readToEof(s, 1024)).isEmpty();
            assertThat(millisSince(t0, System.nanoTime())).isBetween(3000L, 15_000L);
            assertThat(loggedTotal(proxy, "cD")).isBetween(3500L, 15_000L);
        } finally {
            release.countDown();
        }
    }

    /**
     * {@code option independent-streams} on the frontend: what the server sends no longer keeps a silent client's
     * read timeout alive. It expires as the data flows, which only shuts the client's side for reading: the data
     * still reaches it, and the session ends with the server's close, logged {@code cD}. Without the option it is a
     * normal session. As HAProxy 2.6 (-Dit.proxy=haproxy).
     */
    @Test
    void independentStreamsTimesOutTheSilentReaderOnly() throws Exception {
        int plain = freePort();
        int independent = freePort();
        try (Origin origin = Origin.start(s -> {
                 for (int i = 0; i < 12; i++) {
                     s.getOutputStream().write("tick\n".getBytes(StandardCharsets.US_ASCII));
                     Thread.sleep(200);
                 }
             });
             FulcrumProcess proxy = serve("""
                     global
                         log stdout format raw local0
                     defaults
                         mode tcp
                         log global
                         option tcplog
                         timeout connect 5s
                         timeout client 1s
                         timeout server 30s
                     frontend plain
                         bind 127.0.0.1:%d
                         default_backend be
                     frontend independent
                         bind 127.0.0.1:%d
                         option independent-streams
                         default_backend be
                     backend be
                         server s1 127.0.0.1:%d
                     """.formatted(plain, independent, origin.port()), plain)) {
            CompletableFuture<String> viaPlain = CompletableFuture.supplyAsync(() -> ticks(plain));
            assertThat(ticks(independent)).isEqualTo("tick\n".repeat(12));
            assertThat(viaPlain.get(20, TimeUnit.SECONDS)).isEqualTo("tick\n".repeat(12));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (proxy.stdout().lines().filter(l -> l.contains(" be/s1 ")).count() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(proxy.stdout()).containsPattern(" independent be/s1 \\d+/\\d+/\\d+ 60 cD ")
                    .containsPattern(" plain be/s1 \\d+/\\d+/\\d+ 60 -- ");
        }
    }

    /** Everything a silent client receives until the server closes. */
    private static String ticks(int port) {
        try (Socket s = connect(port)) {
            return readToEof(s, 1 << 16);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Traffic keeps a connection alive well past its timeouts: they measure inactivity. */
    @Test
    void activityKeepsTheConnectionOpen() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 600ms
                     timeout server 600ms"""), fe);
             Socket s = connect(fe)) {
            long start = System.nanoTime();
            int i = 0;
            while (millisSince(start, System.nanoTime()) < 2000) {
                assertThat(echo(s, "ping " + i)).isEqualTo("ping " + i);
                i++;
                Thread.sleep(150);
            }
            // Idle now: the timeouts still apply (HAProxy's own clock may count from a slightly earlier event).
            awaitClosed(s, 5000);
        }
    }

    /** Once connected, {@code timeout tunnel} replaces both the client and the server timeouts. */
    @Test
    void timeoutTunnelSupersedesClientAndServer() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 300ms
                     timeout server 300ms
                     timeout tunnel 1500ms"""), fe)) {
            assertThat(idleMillisUntilClosed(fe)).isBetween(1200L, 6000L);
        }
    }

    /** A server that never completes the handshake: the client is closed after {@code timeout connect}. */
    @Test
    void timeoutConnectGivesUpOnAServerThatDoesNotAnswer() throws Exception {
        int fe = freePort();
        try (Blackhole hole = new Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), """
                     retries 0
                     timeout connect 500ms
                     timeout client 30s
                     timeout server 30s"""), fe);
             Socket s = connect(fe)) {
            long start = System.nanoTime();
            send(s, "hello");
            assertThat(millisSince(start, awaitClosed(s, 10_000))).isBetween(400L, 5000L);
        }
    }

    /** With {@code retries 2}, three connection attempts each time out: about three times the timeout. */
    @Test
    void timeoutConnectAppliesToEachRetry() throws Exception {
        int fe = freePort();
        try (Blackhole hole = new Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), """
                     retries 2
                     timeout connect 500ms
                     timeout client 30s
                     timeout server 30s"""), fe);
             Socket s = connect(fe)) {
            long start = System.nanoTime();
            send(s, "hello");
            assertThat(millisSince(start, awaitClosed(s, 15_000))).isBetween(1300L, 10_000L);
        }
    }

    /**
     * The server half-closes; the client neither sends nor closes. {@code timeout client-fin} (not the
     * longer client, server or tunnel timeouts) closes the connection.
     */
    @Test
    void timeoutClientFinAfterTheServerHalfCloses() throws Exception {
        int fe = freePort();
        CompletableFuture<Long> serverSawClose = new CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return;
                 }
                 send(s, "bye");
                 s.shutdownOutput();
                 long shut = System.nanoTime();
                 s.setSoTimeout(20_000);
                 try {
                     readToEof(s, 100);
                     serverSawClose.complete(millisSince(shut, System.nanoTime()));
                 } catch (Exception e) {
                     serverSawClose.complete(millisSince(shut, System.nanoTime())); // a reset closes too
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 30s
                     timeout server 30s
                     timeout tunnel 30s
                     timeout client-fin 500ms"""), fe);
             Socket s = connect(fe)) {
            send(s, HELLO);
            assertThat(readToEof(s, 100)).isEqualTo("bye");
            long closedAfter = serverSawClose.get(15, TimeUnit.SECONDS);
            assertThat(closedAfter).as("ms from the server's FIN to the end of the session").isBetween(400L, 5000L);
            assertWritesFail(s);
        }
    }

    /**
     * The client half-closes; the server neither answers nor closes. {@code timeout server-fin} closes the
     * connection, not the longer server or tunnel timeouts.
     */
    @Test
    void timeoutServerFinAfterTheClientHalfCloses() throws Exception {
        int fe = freePort();
        CountDownLatch done = new CountDownLatch(1);
        try (Origin origin = Origin.start(s -> {
                 readToEof(s, 100);
                 done.await(20, TimeUnit.SECONDS); // silent, and keeps its side open
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 30s
                     timeout server 30s
                     timeout tunnel 30s
                     timeout server-fin 500ms"""), fe);
             Socket s = connect(fe)) {
            send(s, "request");
            s.shutdownOutput();
            long shut = System.nanoTime();
            assertThat(millisSince(shut, awaitClosed(s, 10_000))).isBetween(400L, 5000L);
            done.countDown();
        }
    }

    /**
     * client-fin is for a client that must still acknowledge or send once the server's side is shut. A
     * client that half-closed itself and waits for a slow server is not cut by it (nor by
     * {@code timeout client}): the server's reply, 1.5 s later, arrives.
     */
    @Test
    void clientThatHalfClosedWaitsForASlowServer() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 String request = readToEof(s, 100);
                 Thread.sleep(1500);
                 send(s, "late reply to " + request);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 500ms
                     timeout client-fin 500ms
                     timeout server 30s"""), fe);
             Socket s = connect(fe)) {
            send(s, "request");
            s.shutdownOutput();
            assertThat(readToEof(s, 100)).isEqualTo("late reply to request");
        }
    }

    /** The mirror case: a server that half-closed and waits for a slow client is not cut by server-fin. */
    @Test
    void serverThatHalfClosedWaitsForASlowClient() throws Exception {
        int fe = freePort();
        CompletableFuture<String> received = new CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return;
                 }
                 send(s, "banner");
                 s.shutdownOutput();
                 received.complete(readToEof(s, 100));
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), """
                     timeout connect 5s
                     timeout client 30s
                     timeout server 500ms
                     timeout server-fin 500ms"""), fe);
             Socket s = connect(fe)) {
            send(s, HELLO);
            assertThat(text(readExactly(s, 6))).isEqualTo("banner");
            assertThat(readToEof(s, 100)).isEmpty();
            Thread.sleep(1500);
            send(s, "late data");
            s.shutdownOutput();
            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo("late data");
        }
    }
}
