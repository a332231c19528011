package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When lines are sent and what they hold beyond the formats: {@code option logasap}, {@code log-format-sd},
 * {@code capture cookie}, {@code option dontlog-normal} with {@code option log-separate-errors}. The expected
 * lines are HAProxy 2.6's (run with -Dit.proxy=haproxy); byte counts and timers are patterns.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogOptionsIT {

    /** LogIT's configuration, logging in rfc5424 to {@code rfc5424} too, with the tag "test". */
    private static String config(SyslogListener raw, SyslogListener rfc5424, String mode, int fe, String frontend, String backend) {
        return LogIT.config(raw, mode, fe, frontend, backend)
                .replace("global\n", "global\n    log 127.0.0.1:%d format rfc5424 local0\n    log-tag test\n".formatted(rfc5424.port()));
    }

    /**
     * With logasap, an HTTP transaction is logged once the response head is sent (the body is not sent before the
     * line arrives), with '+' before its active time and its byte count (the head's); the cookies are captured,
     * and rfc5424 lines carry the structured data.
     */
    @Test
    void logasapCookiesAndStructuredData() throws Exception {
        int fe = freePort();
        CountDownLatch logged = new CountDownLatch(1);
        String frontend = """
                option httplog
                option logasap
                capture cookie SRV len 10
                log-format-sd [exampleSDID@32473\\ iut=\\"3\\"\\ eventSource=%{+Q,+E}HM]
                """;
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 x.readBody().send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: SRV=abcdefghijklmnop; path=/\r\n\r\n");
                 if (logged.await(10, TimeUnit.SECONDS)) {
                     x.send("hello");
                 }
             });
             FulcrumProcess proxy = HttpKit.serve(config(raw, rfc5424, "http", fe, frontend, "server s1 127.0.0.1:" + origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /x HTTP/1.1\r\nHost: t\r\nCookie: a=b; SRV=xyz0123456789\r\n\r\n");
            String line = "127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/+{N} 200 +{N} SRV=xyz012 SRV=abcdef ---- 1/1/1/1/0 0/0 "
                    + "\"GET /x HTTP/1.1\"\n";
            assertThat(raw.next()).matches(like(line));
            assertThat(rfc5424.next()).matches("<134>1 \\S+ - test \\d+ - "
                    + like("[exampleSDID@32473 iut=\"3\" eventSource=\"GET\"] " + line));
            logged.countDown();
            assertThat(c.read().status()).isEqualTo(200);
            raw.assertNone(300); // the line was sent already
        }
    }

    /**
     * With logasap, %B counts the body that came with the response head, as HAProxy counts what its response buffer
     * holds when it logs: the head's HTX data and the payload (50 + 11), a chunked body's end too (58 + 11 + 1).
     */
    @Test
    void logasapCountsTheBodyThatCameWithTheHead() throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.readBody().send(x.target().equals("/chunked")
                     ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
                     : "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world"));
             FulcrumProcess proxy = HttpKit.serve(config(raw, rfc5424, "http", fe, "option httplog\noption logasap",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/length")).bodyText()).isEqualTo("hello world");
            assertThat(raw.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/+{N} 200 +61 - - ---- "
                    + "1/1/1/1/0 0/0 \"GET /length HTTP/1.1\"\n"));
            assertThat(c.exchange(get("/chunked")).bodyText()).isEqualTo("hello world");
            assertThat(raw.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/+{N} 200 +70 - - ---- "
                    + "1/1/1/1/0 0/0 \"GET /chunked HTTP/1.1\"\n"));
        }
    }

    /** With logasap, a TCP session is logged once its server connection is established: "+" total time and bytes. */
    @Test
    void logasapInTcp() throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(raw, rfc5424, "tcp", fe, "option tcplog\noption logasap",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            assertThat(raw.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/+{N} +0 -- 1/1/1/1/0 0/0\n"));
            rfc5424.next();
        }
    }

    /**
     * Without logasap, a TCP format that uses nothing known only at the end (no bytes, times, counts nor
     * termination state) is logged once the server connection is established, as HAProxy does; one that does waits.
     */
    @Test
    void aTcpFormatWithoutEndOfSessionVariablesIsLoggedEarly() throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(raw, rfc5424, "tcp", fe, "log-format \"%ci %b/%s %[src] %pid\"",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            assertThat(raw.next()).matches("127\\.0\\.0\\.1 be/s1 127\\.0\\.0\\.1 \\d+\n"); // the session is still open
            rfc5424.next();
        }
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(raw, rfc5424, "tcp", fe, "log-format \"%ci %b/%s %ts\"",
                     "server s1 127.0.0.1:" + origin.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
                raw.assertNone(500);
            }
            assertThat(raw.next()).matches("127\\.0\\.0\\.1 be/s1 \\S\\S\n");
        }
    }

    /**
     * In mode tcp, %tsc ends in "--" whatever the backend's cookie (HAProxy ignores it there, with a warning): a
     * session that ends well, then one whose server refuses the connection.
     */
    @Test
    void terminationStateWithCookiesInTcp() throws Exception {
        String format = "log-format \"%ts %tsc\"";
        assertThat(tcpSessionLogged(format, "cookie SRV insert\nserver s1 127.0.0.1:%d cookie a")).isEqualTo("-- ----\n");
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             FulcrumProcess proxy = TcpProxyKit.serve(config(raw, rfc5424, "tcp", fe, format,
                     "retries 0\ncookie SRV insert\nserver s1 127.0.0.1:" + FulcrumProcess.refusedPort() + " cookie a"), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            assertThat(s.getInputStream().read()).isEqualTo(-1);
            assertThat(raw.next()).isEqualTo("SC SC--\n");
        }
    }

    /** In mode tcp, the server connection's fetches have their samples; the HTTP versions have none (no HTTP mux). */
    @Test
    void serverConnectionFetchesInTcp() throws Exception {
        assertThat(tcpSessionLogged("log-format \"fc=%[fc_http_major] bc=%[bc_http_major] src=%[bc_src] sport=%[bc_src_port,bool] "
                + "dst=%[bc_dst]:%[bc_dst_port]\"", "server s1 127.0.0.1:%d")).matches("fc=- bc=- src=127\\.0\\.0\\.1 sport=1 "
                + "dst=127\\.0\\.0\\.1:\\d+\n");
    }

    /**
     * The line logged for one TCP session that echoes "hello" through a frontend with {@code frontend} lines, to an
     * echo server whose port fills the %d of {@code backend}.
     */
    private static String tcpSessionLogged(String frontend, String backend) throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(raw, rfc5424, "tcp", fe, frontend, backend.formatted(origin.port())), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            return raw.next();
        }
    }

    /** Without a Cookie or Set-Cookie field, or none of the name, the columns are "-"; a name ending in '=' is exact. */
    @Test
    void cookieColumnsWithoutTheCookie() throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok", "Set-Cookie: SRVX=1"));
             FulcrumProcess proxy = HttpKit.serve(config(raw, rfc5424, "http", fe, "log-format \"%CC %CS %{+Q}CC\"\ncapture cookie SRV= len 63",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: t\r\nCookie: SRVX=2;SRV=3\r\n\r\n").status()).isEqualTo(200);
            assertThat(raw.next()).isEqualTo("SRV=3 - \"SRV=3\"\n");
            assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            assertThat(raw.next()).isEqualTo("- - \"\"\n");
        }
    }

    /**
     * dontlog-normal leaves out the transactions without error; log-separate-errors sends the others at level err
     * (a 5xx from the server is one).
     */
    @Test
    void dontlogNormalWithSeparateErrors() throws Exception {
        int fe = freePort();
        try (SyslogListener raw = SyslogListener.open();
             SyslogListener rfc5424 = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(x.target().equals("/fail") ? 500 : 200, "ok"));
             FulcrumProcess proxy = HttpKit.serve(config(raw, rfc5424, "http", fe,
                     "log-format \"%HU %ST %tsc\"\noption dontlog-normal\noption log-separate-errors",
                     "server s1 127.0.0.1:" + origin.port()).replace("format raw", "format priority"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/ok")).status()).isEqualTo(200);
            assertThat(c.exchange(get("/fail")).status()).isEqualTo(500);
            assertThat(raw.next()).isEqualTo("<131>/fail 500 ----\n");
            assertThat(c.exchange(get("/ok2")).status()).isEqualTo(200);
            raw.assertNone(300);
        }
    }
}
