package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.assertSilent;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TCP client that shuts its side while its session waits for a server, in a queue or while the server connection is
 * being made. As in HAProxy (back_may_abort_req()), the session is given up at once when nothing the client sent is
 * left to pass on, or in any case with {@code option abortonclose}; otherwise it waits and is served (CQ and CC in
 * the log, checked against haproxy 2.6).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpAbortOnCloseIT {

    private static String config(int fe, int server, String options) {
        return """
                global
                    log stdout format raw local0
                defaults
                    mode tcp
                    log global
                    option tcplog
                    timeout connect 20s
                    timeout client 20s
                    timeout server 20s
                    timeout queue 20s
                    %s
                listen l
                    bind 127.0.0.1:%d
                    server s1 127.0.0.1:%d maxconn 1
                """.formatted(options, fe, server);
    }

    /** The client half-closes after {@code bytes}, once its session waits: how long until the proxy closes. */
    private static long shutWhileWaiting(Socket c, String bytes) throws Exception {
        if (!bytes.isEmpty()) {
            send(c, bytes);
        }
        Thread.sleep(300); // in the queue, or connecting
        long t0 = System.nanoTime();
        c.shutdownOutput();
        assertThat(readToEof(c, 1024)).isEmpty();
        return millisSince(t0, System.nanoTime());
    }

    private static String awaitLine(FulcrumProcess proxy, String part) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            String line = proxy.stdout().lines().filter(l -> l.contains(part)).findFirst().orElse(null);
            if (line != null) {
                return line;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no log line with '" + part + "' in:\n" + proxy.stdout());
    }

    @Test
    void aQueuedClientThatLeavesWithNothingToSendIsGivenUp() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), ""), fe);
             Socket holder = connect(fe)) {
            assertThat(TcpProxyKit.echo(holder, "A")).isEqualTo("A"); // it holds the server's only slot
            try (Socket queued = connect(fe)) {
                assertThat(shutWhileWaiting(queued, "")).isLessThan(5000);
            }
            assertThat(awaitLine(proxy, " CQ ")).containsPattern(" l l/<NOSRV> \\d+/-1/\\d+ 0 CQ ");
        }
    }

    @Test
    void aQueuedClientThatLeftBytesWaitsForItsServer() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), ""), fe);
             Socket holder = connect(fe)) {
            assertThat(TcpProxyKit.echo(holder, "A")).isEqualTo("A");
            try (Socket queued = connect(fe)) {
                send(queued, "B");
                Thread.sleep(300);
                queued.shutdownOutput();
                assertSilent(queued, 1000, "a queued session whose client half-closed with bytes to pass on");
                holder.close(); // the slot frees: the queued session is served
                assertThat(readToEof(queued, 1024)).isEqualTo("B");
            }
        }
    }

    @Test
    void withAbortOnCloseAQueuedClientThatLeavesIsGivenUp() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option abortonclose"), fe);
             Socket holder = connect(fe)) {
            assertThat(TcpProxyKit.echo(holder, "A")).isEqualTo("A");
            try (Socket queued = connect(fe)) {
                assertThat(shutWhileWaiting(queued, "B")).isLessThan(5000);
            }
            assertThat(awaitLine(proxy, " CQ ")).containsPattern(" l l/<NOSRV> \\d+/-1/\\d+ 0 CQ ");
        }
    }

    @Test
    void withAbortOnCloseAConnectingClientThatLeavesIsGivenUp() throws Exception {
        int fe = freePort();
        try (TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), "option abortonclose"), fe);
             Socket c = connect(fe)) {
            assertThat(shutWhileWaiting(c, "B")).isLessThan(5000);
            assertThat(awaitLine(proxy, " CC ")).containsPattern(" l l/s1 \\d+/-1/\\d+ 0 CC ");
        }
    }

    /** A reset is a client error whatever the session waits for: CD, as HAProxy logs it, Tw counting the wait. */
    @Test
    void aQueuedClientThatResetsIsLoggedCD() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), ""), fe);
             Socket holder = connect(fe)) {
            assertThat(TcpProxyKit.echo(holder, "A")).isEqualTo("A");
            resetWhileWaiting(connect(fe));
            assertThat(awaitLine(proxy, " CD ")).containsPattern(" l l/<NOSRV> [1-9]\\d+/-1/\\d+ 0 CD ");
        }
    }

    @Test
    void aConnectingClientThatResetsIsLoggedCD() throws Exception {
        int fe = freePort();
        try (TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), ""), fe)) {
            resetWhileWaiting(connect(fe));
            assertThat(awaitLine(proxy, " CD ")).containsPattern(" l l/s1 \\d+/-1/\\d+ 0 CD ");
        }
    }

    /** Sends a byte, waits in the queue or for the connection, then resets the connection. */
    private static void resetWhileWaiting(Socket c) throws Exception {
        send(c, "B");
        Thread.sleep(300);
        c.setSoLinger(true, 0);
        c.close();
    }

    @Test
    void aConnectingClientThatLeavesWithNothingToSendIsGivenUp() throws Exception {
        int fe = freePort();
        try (TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), ""), fe);
             Socket c = connect(fe)) {
            assertThat(shutWhileWaiting(c, "")).isLessThan(5000);
            assertThat(awaitLine(proxy, " CC ")).containsPattern(" l l/s1 \\d+/-1/\\d+ 0 CC ");
        }
    }
}
