package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How transactions end when a side misbehaves around the edges of an exchange (a tarpit the client leaves, a server
 * that closes after answering an upload early, a client that stops reading): the log's status, termination state and
 * timers, and what happens to the connections, as HAProxy 2.6 (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TerminationStatesIT {

    private static final int BIG = 64 << 20;

    /** A tarpit's time is its Tw (the request is not timed: TR -1), whether the client waits, closes or resets. */
    @Test
    void aTarpitIsLoggedPtWithItsTimeAsTwWhateverTheClientDoes() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, """
                     log-format "%HP %ST %tsc %TR/%Tw/%Tc/%Tr"
                     timeout tarpit 300ms
                     http-request tarpit if { path /t }""", "server s1 127.0.0.1:" + origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/t")).status()).isEqualTo(500);
            }
            String waited = logs.next().trim();
            assertThat(waited).matches(like("/t 500 PT-- -1/{N}/-1/-1"));
            assertThat(tw(waited)).isGreaterThanOrEqualTo(290);

            HttpClientConn closing = HttpClientConn.open(fe);
            closing.send(get("/t"));
            Thread.sleep(50);
            closing.close(); // a FIN: the tarpit holds on to its end, as HAProxy's
            assertThat(tw(logs.next().trim())).isGreaterThanOrEqualTo(290);

            HttpClientConn resetting = HttpClientConn.open(fe);
            resetting.send(get("/t"));
            Thread.sleep(50);
            resetting.socket.setSoLinger(true, 0);
            resetting.close(); // (HAProxy does not see the reset and holds on; Fulcrum ends the tarpit with it)
            assertThat(logs.next().trim()).matches(like("/t 500 PT-- -1/{N}/-1/-1"));
        }
    }

    private static long tw(String line) {
        return Long.parseLong(line.substring(line.indexOf("-1/") + 3).split("/")[0]);
    }

    /** A client that resets its connection in the middle of its request's body: CD, as one that closes it. */
    @Test
    void aResetDuringTheRequestBodyIsCd() throws Exception {
        int fe = freePort();
        CountDownLatch headSeen = new CountDownLatch(1);
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 headSeen.countDown();
                 x.body.readAllBytes(); // never whole: the client stops after 3 of 10 bytes
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%ST %tsc %B\"",
                     "server s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            assertThat(headSeen.await(10, TimeUnit.SECONDS)).isTrue();
            c.socket.setSoLinger(true, 0);
            c.close();
            assertThat(logs.next().trim()).isEqualTo("-1 CD-- 0");
        }
    }

    /**
     * A server that answers an upload before its end and closes: the client still sends the rest (its answer must not
     * be destroyed by a reset), and the transaction ends with the request, normally, or CD if the client gives up.
     * (Whether the client connection stays open after depends, in HAProxy, on how the server closed: not tested.)
     */
    @Test
    void aServerThatClosesAfterAnEarlyAnswerLetsTheRequestEnd() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 413 Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%ST %tsc %B\"",
                     "server s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 413 Too Large");
            Thread.sleep(200); // the server has closed meanwhile
            c.send("d".repeat(97));
            assertThat(logs.next().trim()).matches(like("413 ---- {N}"));

            HttpClientConn leaving = HttpClientConn.open(fe);
            leaving.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
            assertThat(leaving.readHead().startLine()).isEqualTo("HTTP/1.1 413 Too Large");
            Thread.sleep(200);
            leaving.close();
            assertThat(logs.next().trim()).matches(like("413 CD-- {N}"));
        }
    }

    /**
     * A client that stops reading a long response: timeout client ends it (cD) and closes the connection with what
     * still waited for it; the server, not read meanwhile, is not timed out (HAProxy's read timeout is off while the
     * buffer towards the client is full).
     */
    @Test
    void aClientThatStopsReadingTimesOutAsCd() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Length: " + BIG + "\r\n\r\n");
                 sendUntilRefused(x.socket.getOutputStream());
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, """
                     log-format "%ST %tsc %B"
                     timeout client 1s""", "timeout server 1s\nserver s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send(get("/big"));
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(logs.next().trim()).matches(like("200 cD-- {N}"));
            assertThat(drain(c.in())).isLessThan(BIG);
        }
    }

    /** The same in mode tcp: the client's timeout (cD), not the server's, and the client connection closed. */
    @Test
    void aTcpClientThatStopsReadingTimesOutAsCd() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(s -> sendUntilRefused(s.getOutputStream()));
             FulcrumProcess proxy = TcpProxyKit.serve(LogIT.config(logs, "tcp", fe, """
                     log-format "%ts %B"
                     timeout client 1s""", "timeout server 1s\nserver s1 127.0.0.1:" + origin.port()), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            assertThat(logs.next().trim()).matches(like("cD {N}"));
            assertThat(drain(s.getInputStream())).isLessThan(BIG);
        }
    }

    /**
     * A server that stops reading an upload: its write timeout (timeout server, even with a shorter timeout client,
     * the client not being read meanwhile) ends the transaction in the data phase, sD, without an answer.
     */
    @Test
    void aServerThatStopsReadingAnUploadTimesOutAsSd() throws Exception {
        int fe = freePort();
        CountDownLatch done = new CountDownLatch(1);
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 done.await(20, TimeUnit.SECONDS); // reads nothing of the body
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, """
                     log-format "%ST %tsc %B"
                     timeout client 500ms""", "timeout server 1500ms\nserver s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: " + BIG + "\r\n\r\n");
            Thread.ofPlatform().daemon().start(() -> sendUntilRefused(c.out()));
            assertThat(logs.next().trim()).isEqualTo("-1 sD-- 0");
            assertThat(drain(c.in())).isZero();
            done.countDown();
        }
    }

    /**
     * A client that stalls in the middle of its body once the server has the request: HAProxy does not time the
     * client out meanwhile (its request channel does not expire while the server has not answered): the server's
     * timeout ends it, with a 504 (sH).
     */
    @Test
    void aStalledBodyAtTheServerEndsWithTheServersTimeout() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 x.body.readAllBytes(); // never whole
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, """
                     log-format "%ST %tsc %Ta"
                     timeout client 500ms""", "timeout server 1500ms\nserver s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 504 Gateway Time-out");
            String line = logs.next().trim();
            assertThat(line).matches(like("504 sH-- {N}"));
            assertThat(Long.parseLong(line.substring(9))).isGreaterThanOrEqualTo(1400);
        }
    }

    /** An upload that trickles for longer than timeout server: each part sent to the server counts as its activity. */
    @Test
    void aTrickledUploadKeepsTheServersTimeoutAway() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "got " + new String(x.body.readAllBytes())));
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, """
                     log-format "%ST %tsc"
                     timeout client 1s""", "timeout server 1s\nserver s1 127.0.0.1:" + origin.port()), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\n");
            for (char part : "abcdef".toCharArray()) {
                Thread.sleep(400);
                c.send(String.valueOf(part));
            }
            assertThat(c.read().bodyText()).isEqualTo("got abcdef");
            assertThat(logs.next().trim()).isEqualTo("200 ----");
        }
    }

    private static void sendUntilRefused(OutputStream out) {
        byte[] chunk = new byte[64 * 1024];
        try {
            for (int sent = 0; sent < BIG; sent += chunk.length) {
                out.write(chunk);
            }
        } catch (IOException gone) {
            // the proxy closed
        }
    }

    /** Reads to the end (EOF or reset, within 20 s): the bytes read. */
    private static long drain(InputStream in) throws IOException {
        byte[] b = new byte[1 << 16];
        long total = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try {
            for (int n; (n = in.read(b)) > 0; ) {
                total += n;
                assertThat(System.nanoTime()).as("closed within 20 s").isLessThan(deadline);
            }
        } catch (SocketException reset) {
            // closed too
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open", e);
        }
        return total;
    }
}
