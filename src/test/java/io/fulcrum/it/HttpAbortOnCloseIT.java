package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.haproxy;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * A client that closes its side before the end of the exchange. A request it had not finished sending is given
 * up: both connections close without an answer, as in HAProxy. A complete request still gets its response, unless
 * the backend has {@code option abortonclose}: then it is abandoned at once, with HAProxy's 400 and the close when
 * the server has it, with the close alone while the connection to the server is still being made.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpAbortOnCloseIT {

    /** The HTTP/1 output form of HAProxy's 400, with the close. */
    private static final String E400_CLOSE = "HTTP/1.1 400 Bad request\r\n"
            + "content-length: 90\r\n"
            + "cache-control: no-cache\r\n"
            + "content-type: text/html\r\n"
            + "connection: close\r\n"
            + "\r\n"
            + "<html><body><h1>400 Bad request</h1>\n"
            + "Your browser sent an invalid request.\n"
            + "</body></html>\n";

    @Test
    void truncatedRequestIsGivenUp() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\n01234");
            c.socket.shutdownOutput();
            assertThat(HttpWire.text(c.in().readAllBytes())).isEmpty();
        }
    }

    /** An early response goes on to its end; then both connections close (no wait for the rest of the body). */
    @Test
    void earlyResponseThenTheClientStops() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.send("HTTP/1.1 413 Too Large\r\nContent-Length: 3\r\n\r\nno\n"));
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100000\r\n\r\n01234");
            assertThat(c.read().bodyText()).isEqualTo("no\n");
            c.socket.shutdownOutput();
            c.awaitClosed(3000);
        }
    }

    /** With the option, a complete request waiting for its response is abandoned when the client stops. */
    @Test
    void abortOnClose() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 notices the close only when it comes in the same read as the request");
        int fe = freePort();
        CountDownLatch release = new CountDownLatch(1);
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 release.await(20, TimeUnit.SECONDS);
                 x.reply(200, "late");
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option abortonclose" + logged(logs)), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            origin.nextHead(5000);
            assertAbandonedOnClose(c);
            assertThat(logs.next()).contains(" be/s1 ").contains(" 400 ").contains(" CH-- ");
        } finally {
            release.countDown();
        }
    }

    /**
     * A connection still being established is abandoned too, instead of waiting for timeout connect, and without an
     * answer: nothing was asked of the server yet (HAProxy logs it -1, CC; its http_abortonclose.vtc).
     */
    @Test
    void abortOnCloseWhileConnecting() throws Exception {
        assumeFalse(haproxy(), "HAProxy 2.6 waits for the connection attempt to end");
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             FulcrumProcess proxy = serve(config(fe, hole.port(), "option abortonclose\ntimeout connect 20s" + logged(logs)), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            Thread.sleep(300);
            long t0 = System.nanoTime();
            c.socket.shutdownOutput();
            assertThat(c.in().readAllBytes()).isEmpty();
            assertThat(millisSince(t0, System.nanoTime())).isLessThan(5000);
            assertThat(logs.next()).contains(" be/s1 ").contains(" -1 0 ").contains(" CC-- ");
        }
    }

    /** The defaults' lines that log each transaction (httplog) to {@code logs}. */
    private static String logged(SyslogListener logs) {
        return "\noption httplog\nlog 127.0.0.1:" + logs.port() + " format raw local0";
    }

    /** Half-closes {@code c}: the 400 and the close come at once, not when the server would have answered. */
    private static void assertAbandonedOnClose(HttpClientConn c) throws Exception {
        long t0 = System.nanoTime();
        c.socket.shutdownOutput();
        assertThat(HttpWire.text(c.in().readAllBytes())).isEqualTo(E400_CLOSE);
        assertThat(millisSince(t0, System.nanoTime())).isLessThan(5000);
    }
}
