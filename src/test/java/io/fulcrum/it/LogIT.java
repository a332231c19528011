package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log lines as a syslog server receives them, from a proxy logging to a UDP socket of the test. The
 * expected lines are HAProxy 2.6's (run them with -Dit.proxy=haproxy): whole lines, with patterns only for
 * dates, ports, timers and byte counts of HTTP messages (HAProxy counts its internal form of HTTP messages,
 * Fulcrum the bytes on the wire).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogIT {

    /** {@code template} as a pattern: {N} is a number, {DATE} a date as %t writes it, the rest is literal. */
    static String like(String template) {
        StringBuilder re = new StringBuilder();
        Matcher m = Pattern.compile("\\{(N|DATE)}").matcher(template);
        int last = 0;
        while (m.find()) {
            re.append(Pattern.quote(template.substring(last, m.start())));
            re.append(m.group(1).equals("N") ? "-?\\d+" : "\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2}\\.\\d{3}");
            last = m.end();
        }
        return re.append(Pattern.quote(template.substring(last))).toString();
    }

    /**
     * One frontend "fe" on {@code fe} whose default backend "be" has the lines {@code backend}, logging in raw
     * format to {@code logs}; {@code frontend} are more lines for it.
     */
    static String config(SyslogListener logs, String mode, int fe, String frontend, String backend) {
        return """
                global
                    log 127.0.0.1:%d format raw local0
                defaults
                    mode %s
                    log global
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                %s
                backend be
                %s
                """.formatted(logs.port(), mode, fe, frontend.indent(4), backend.indent(4));
    }

    private static String server(int port) {
        return "server s1 127.0.0.1:" + port;
    }

    // --- mode tcp ------------------------------------------------------------------------------------

    @Test
    void tcplog() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "option tcplog", server(origin.port())), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N} 5 -- 1/1/0/0/0 0/0\n"));
        }
    }

    /** Without a format, HAProxy's default one: a line when the connection is accepted, none at its end. */
    @Test
    void defaultFormatLogsTheAccept() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "", server(origin.port())), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).matches(like("Connect from 127.0.0.1:{N} to 127.0.0.1:" + fe + " (fe/TCP)\n"));
            logs.assertNone(500);
        }
    }

    /**
     * Without a format in mode http, the line of HAProxy's default format is for each request whose head was read
     * (a stream begins): two on a kept-alive connection, none for a connection that sent nothing, a cut request or a
     * bad one.
     */
    @Test
    void defaultFormatInHttpLogsEachRequest() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "", server(origin.port())), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(100);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET / HT");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n").status()).isEqualTo(400);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/a")).status()).isEqualTo(200);
                assertThat(c.exchange(get("/b")).status()).isEqualTo(200);
            }
            for (int i = 0; i < 2; i++) {
                assertThat(logs.next()).matches(like("Connect from 127.0.0.1:{N} to 127.0.0.1:" + fe + " (fe/HTTP)\n"));
            }
            logs.assertNone(500);
        }
    }

    /** dontlognull: a connection on which the client sent nothing is not logged. */
    @Test
    void dontlognull() throws Exception {
        int fe = freePort();
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "option tcplog\noption dontlognull",
                     server(origin.port())).replaceFirst("^global\n", Matcher.quoteReplacement("global\n    stats socket " + cli + " level admin\n")), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(100);
            }
            // The empty connection's end goes through the origin's half-close: the next one starts once it is gone,
            // so that the counters of its line are its own only.
            CliClient.await(cli, "show info", Pattern.compile("(?m)^CurrConns: 0$"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "data")).isEqualTo("data");
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N} 4 -- 1/1/0/0/0 0/0\n"));
            logs.assertNone(500);
        }
    }

    /** The client resets the connection: C, in the data phase. */
    @Test
    void tcpClientAbort() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "option tcplog", server(origin.port())), fe)) {
            Socket s = TcpProxyKit.connect(fe);
            assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            s.setSoLinger(true, 0);
            s.close();
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N} 5 CD 1/1/0/0/0 0/0\n"));
        }
    }

    /** With accept-proxy, the wait for the PROXY header is the handshake time (Th); the addresses are the header's. */
    @Test
    void proxyHeaderTimeIsTh() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "log-format \"%ci:%cp %Th\"", server(origin.port()))
                     .replace(":" + fe + "\n", ":" + fe + " accept-proxy\n"), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(300);
                TcpProxyKit.send(s, "PROXY TCP4 1.2.3.4 5.6.7.8 1000 2000\r\n");
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            String line = logs.next();
            assertThat(line).startsWith("1.2.3.4:1000 ");
            assertThat(Long.parseLong(line.trim().split(" ")[1])).isBetween(250L, 5000L);
        }
    }

    /** Connections without a valid PROXY header: HAProxy's fixed line, the bind named by its listener's number. */
    @Test
    void proxyHeaderErrors() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "option tcplog", server(origin.port()))
                     .replace(":" + fe + "\n", ":" + fe + " accept-proxy\n"), fe)) {
            String head = "127.0.0.1:{N} [{DATE}] fe/1: ";
            try (Socket s = TcpProxyKit.connect(fe)) {
                TcpProxyKit.send(s, "GARBAGE GARBAGE GARBAGE GARBAGE GARBAGE GARBAGE\r\n");
                TcpProxyKit.awaitClosed(s, 3000);
            }
            assertThat(logs.next()).matches(like(head + "Received something which does not look like a PROXY protocol header\n"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                s.shutdownOutput();
                TcpProxyKit.awaitClosed(s, 3000);
            }
            assertThat(logs.next()).matches(like(head + "Connection closed while waiting for PROXY protocol header\n"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                TcpProxyKit.send(s, "PROXY TCP4 1.2.3.4");
                s.shutdownOutput();
                TcpProxyKit.awaitClosed(s, 3000);
            }
            assertThat(logs.next()).matches(like(head + "Truncated PROXY protocol header received\n"));
        }
    }

    /** No server: S, before a connection (Tw and Tc -1). */
    @Test
    void tcpNoServer() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "option tcplog", ""), fe);
             Socket s = TcpProxyKit.connect(fe)) {
            TcpProxyKit.awaitClosed(s, 3000);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/<NOSRV> -1/-1/{N} 0 SC 1/1/0/0/0 0/0\n"));
        }
    }

    // --- mode http -----------------------------------------------------------------------------------

    @Test
    void httplogOfTwoRequestsOnOneConnection() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog", server(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/a?b=c")).status()).isEqualTo(200);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- 1/1/0/0/0 0/0 "
                    + "\"GET /a?b=c HTTP/1.1\"\n"));
            assertThat(c.exchange(get("/second")).status()).isEqualTo(200);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- 1/1/0/0/0 0/0 "
                    + "\"GET /second HTTP/1.1\"\n"));
        }
    }

    /**
     * A custom format (spaces merge, %o flags), captured fields in their default place, the unique ID in the
     * log and in the request the server gets, the CLF format.
     */
    @Test
    void customFormatCapturesAndUniqueId() throws Exception {
        int fe = freePort();
        String frontend = """
                capture request header Host len 5
                capture request header X-Missing len 5
                capture response header X-Reply len 20
                unique-id-format id-%HM-%{+X}fp
                unique-id-header X-Unique-ID
                log-format "%{+Q}o   %HM %{-Q}hr %hs %ID %ST %ts %[str(x)] %b %{-Q}s"
                """;
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok", "X-Reply: a|b\"c"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, server(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET /x HTTP/1.1\r\nHost: example.com\r\n\r\n").status()).isEqualTo(200);
            String id = "id-GET-" + String.format("%04X", fe);
            assertThat(logs.next()).isEqualTo("\"GET\" {examp|} \"{a#7Cb#22c}\" \"" + id + "\" 200 -- \"x\" \"be\" s1\n");
            assertThat(origin.requests(1).get(0).head().get("X-Unique-ID")).isEqualTo(id);
        }
    }

    @Test
    void httplogClf() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog clf\ncapture request header Host len 9",
                     server(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET /clf HTTP/1.1\r\nHost: host.name\r\n\r\n").status()).isEqualTo(200);
            assertThat(logs.next()).matches(like("127.0.0.1 - - [") + "\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} \\+0000"
                    + like("] \"GET /clf HTTP/1.1\" 200 {N} \"\" \"\" {N} {N} \"fe\" \"be\" \"s1\" {N} {N} {N} {N} {N} ---- "
                    + "1 1 0 0 0 0 0 \"\" \"\" \"host.name\" \n")); // %hsl: nothing, after its separator
        }
    }

    /** No server in the backend: 503, S before the connection (Tw -1). */
    @Test
    void noServer503() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog", ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).status()).isEqualTo(503);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/<NOSRV> {N}/-1/-1/-1/{N} 503 {N} - - SC-- 1/1/0/0/0 0/0 "
                    + "\"GET / HTTP/1.1\"\n"));
        }
    }

    /** The connection to the server times out, after a retry: 503, s while connecting (Tc -1), one retry. */
    @Test
    void connectTimeoutAfterARetry() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             TcpProxyKit.Blackhole hole = new TcpProxyKit.Blackhole();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog",
                     server(hole.port()) + "\ntimeout connect 300ms\nretries 1"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).status()).isEqualTo(503);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/-1/-1/{N} 503 {N} - - sC-- 1/1/0/0/1 0/0 "
                    + "\"GET / HTTP/1.1\"\n"));
        }
    }

    /** The server does not answer in time: 504, s while waiting for the response head (Tr -1). */
    @Test
    void serverTimeout() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> { });
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog",
                     server(origin.port()) + "\ntimeout server 300ms"), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/slow")).status()).isEqualTo(504);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/-1/{N} 504 {N} - - sH-- 1/1/0/0/0 0/0 "
                    + "\"GET /slow HTTP/1.1\"\n"));
        }
    }

    /** The client resets its connection during a long response: C in the data phase, the bytes sent so far. */
    @Test
    void clientAbortDuringTheResponse() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n");
                 byte[] chunk = new byte[16384];
                 try {
                     for (int i = 0; i < 6000; i++) {
                         x.send(chunk);
                         Thread.sleep(5);
                     }
                 } catch (java.io.IOException gone) {
                     x.close();
                 }
             });
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog", server(origin.port())), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send(get("/big"));
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 200 OK");
            c.in().readNBytes(100_000);
            Socket s = c.socket;
            s.setSoLinger(true, 0);
            s.close();
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - CD-- 1/1/0/0/0 0/0 "
                    + "\"GET /big HTTP/1.1\"\n"));
        }
    }

    /** A client that gives its request up in the middle of the body: CD once the server was connected, as HAProxy. */
    @Test
    void clientAbortDuringTheRequestBody() throws Exception {
        int fe = freePort();
        java.util.concurrent.CountDownLatch headSeen = new java.util.concurrent.CountDownLatch(1);
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 headSeen.countDown();
                 x.body.readAllBytes(); // never whole: the client stops after 3 of 10 bytes
                 x.close();
             });
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog", server(origin.port())), fe)) {
            HttpClientConn c = HttpClientConn.open(fe);
            c.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            assertThat(headSeen.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            c.socket.shutdownOutput();
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/-1/{N} -1 {N} - - CD-- 1/1/0/0/0 0/0 "
                    + "\"POST /up HTTP/1.1\"\n"));
            c.socket.close();
        }
    }

    /** A tarpitted request is answered after timeout tarpit and logged PT (a denied one PR). */
    @Test
    void tarpitAndDenyStates() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, """
                     log-format "%HP %ST %tsc"
                     timeout tarpit 200ms
                     http-request tarpit if { path /t }
                     http-request deny if { path /d }""", server(origin.port())), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/t")).status()).isEqualTo(500);
            }
            assertThat(logs.next().trim()).isEqualTo("/t 500 PT--");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/d")).status()).isEqualTo(403);
            }
            assertThat(logs.next().trim()).isEqualTo("/d 403 PR--");
        }
    }

    /** The whole httplog line of a denied request: no server, no connection (-1 timers), 403, PR--. */
    @Test
    void httplogOfADeniedRequest() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog\nhttp-request deny if { path /d }",
                     server(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/d?x=1")).status()).isEqualTo(403);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> {N}/-1/-1/-1/{N} 403 {N} - - PR-- 1/1/0/0/0 0/0 "
                    + "\"GET /d?x=1 HTTP/1.1\"\n"));
        }
    }

    /**
     * %Td is -1 without a data phase: a denied request, one the proxy answers itself ({@code http-request return}), a
     * TCP connection without a server; else Tt less the timers before it. With the other timers and dates of the line.
     */
    @Test
    void dataTimeOfServedDeniedReturnedAndTcpStreams() throws Exception {
        int fe = freePort();
        int tcp = freePort();
        String format = "log-format \"%Td %Tu %Ts %Tl %T %f %ms\"";
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, format + """

                     http-request deny if { path /d }
                     http-request return status 200 content-type text/plain string ok if { path /r }""", server(origin.port()))
                     + """
                     frontend tcp
                         mode tcp
                         bind 127.0.0.1:%d
                         %s
                         default_backend none
                     backend none
                         mode tcp
                     """.formatted(tcp, format), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            String date = "(\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2}) [+-]\\d{4}";
            Pattern line = Pattern.compile("(-1|\\d+) \\d+ (\\d{10}) " + date + " " + date + " (fe|tcp) \\d{3}\n");
            assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            assertThat(dataTime(line, logs.next(), "fe")).isGreaterThanOrEqualTo(0);
            assertThat(c.exchange(get("/d")).status()).isEqualTo(403);
            assertThat(dataTime(line, logs.next(), "fe")).isEqualTo(-1);
            try (HttpClientConn r = HttpClientConn.open(fe)) {
                assertThat(r.exchange(get("/r")).status()).isEqualTo(200);
            }
            assertThat(dataTime(line, logs.next(), "fe")).isEqualTo(-1);
            try (Socket s = TcpProxyKit.connect(tcp)) {
                TcpProxyKit.awaitClosed(s, 3000);
            }
            assertThat(dataTime(line, logs.next(), "tcp")).isEqualTo(-1);
        }
    }

    /** %Td of a line of {@code line}'s form from frontend {@code fe}, whose %T is %Ts as a GMT date. */
    private static long dataTime(Pattern line, String logged, String fe) {
        Matcher m = line.matcher(logged);
        assertThat(m.matches()).as(logged).isTrue();
        assertThat(m.group(5)).isEqualTo(fe);
        assertThat(m.group(4)).isEqualTo(java.time.format.DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss", java.util.Locale.ROOT)
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochSecond(Long.parseLong(m.group(2)))));
        return Long.parseLong(m.group(1));
    }

    /** A proxy's own log-tag replaces the global one in its lines' syslog header; the others keep the global one. */
    @Test
    void aProxysLogTagOverridesTheGlobalOne() throws Exception {
        int fe = freePort();
        int other = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok")) {
            String config = """
                    global
                        log-tag globaltag
                        log 127.0.0.1:%d local0
                    defaults
                        mode http
                        log global
                        log-format "%%f %%ST"
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        bind 127.0.0.1:%d
                        log-tag fetag
                        default_backend be
                    frontend other
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d
                    """.formatted(logs.port(), fe, other, origin.port());
            try (FulcrumProcess proxy = HttpKit.serve(config, fe)) {
                String date = "<134>[A-Z][a-z]{2} [ 1-3]\\d \\d{2}:\\d{2}:\\d{2} ";
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                }
                assertThat(logs.next()).matches(date + "fetag\\[\\d+\\]: fe 200\n");
                try (HttpClientConn c = HttpClientConn.open(other)) {
                    assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                }
                assertThat(logs.next()).matches(date + "globaltag\\[\\d+\\]: other 200\n");
            }
        }
    }

    /**
     * Empty lines before a request are skipped, a lone LF too (RFC 9112 2.2): an {@code echo | nc} probe waits for its
     * request like an idle connection, 408 cR-- at timeout http-request, and is no parsing error ({@code show errors}).
     */
    @Test
    void aLoneLfBeforeARequestWaitsForTheRequest() throws Exception {
        int fe = freePort();
        java.nio.file.Path sock = java.nio.file.Files.createTempDirectory("fulcrum-log").resolve("s.sock");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog\ntimeout http-request 500ms",
                     server(origin.port())).replaceFirst("global\n", "global\n    stats socket " + sock + " level admin\n"), fe)) {
            for (String probe : new String[] {"\n", "\r\n"}) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    c.send(probe);
                    c.assertSilent(200, "a probe before timeout http-request");
                    assertThat(c.read().status()).isEqualTo(408);
                }
                assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/-1/-1/{N} 408 0 - - cR-- 1/1/0/0/0 0/0 "
                        + "\"<BADREQ>\"\n"));
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("\n\r\n\nGET /after HTTP/1.1\r\nHost: a\r\n\r\n").status()).isEqualTo(200);
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- 1/1/0/0/0 0/0 "
                    + "\"GET /after HTTP/1.1\"\n"));
            assertThat(CliClient.send(sock, "show errors")).matches("Total events captured on \\[[^]]+\\] : 0\n\n");
        }
    }

    /** An upgraded connection is one transaction, logged when its tunnel ends, with the bytes of both. */
    @Test
    void upgradeIsLoggedWhenTheTunnelEnds() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.upgradingToEcho();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog\ntimeout tunnel 5s", server(origin.port())), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET /ws HTTP/1.1\r\nHost: test\r\nConnection: upgrade\r\nUpgrade: test\r\n\r\n");
                assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 101 Switching Protocols");
                assertThat(TcpProxyKit.echo(c.socket, "hello")).isEqualTo("hello");
                logs.assertNone(300); // not before the tunnel ends
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 101 {N} - - ---- 1/1/0/0/0 0/0 "
                    + "\"GET /ws HTTP/1.1\"\n"));
        }
    }

    /** Requests that never become transactions: refused (400), abandoned (400), too slow (408). */
    @Test
    void badRequestsAbandonedAndLateRequests() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "option httplog\ntimeout http-request 500ms",
                     server(origin.port())), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GARBAGE\r\n\r\n").status()).isEqualTo(400);
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/-1/-1/{N} 400 0 - - PR-- 1/1/0/0/0 0/0 "
                    + "\"<BADREQ>\"\n"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(100);
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/-1/-1/{N} 400 0 - - CR-- 1/1/0/0/0 0/0 "
                    + "\"<BADREQ>\"\n"));
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET / HTTP/1.1\r\n");
                assertThat(c.read().status()).isEqualTo(408);
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/-1/-1/{N} 408 0 - - cR-- 1/1/0/0/0 0/0 "
                    + "\"<BADREQ>\"\n"));
        }
    }

    /**
     * error-log-format is for the requests that never became transactions; log-separate-errors raises the
     * level of every failed one to err.
     */
    @Test
    void errorLogFormatAndSeparateErrors() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe,
                     "option httplog\noption log-separate-errors\nerror-log-format \"ERR %ST %ts %r\"", "")
                     .replace("format raw", "format priority"), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GARBAGE\r\n\r\n").status()).isEqualTo(400);
            }
            assertThat(logs.next()).isEqualTo("<131>ERR 400 PR <BADREQ>\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(503);
            }
            assertThat(logs.next()).matches(like("<131>127.0.0.1:{N} [{DATE}] fe be/<NOSRV> {N}/-1/-1/-1/{N} 503 {N} - - SC-- "
                    + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n"));
        }
    }

    // --- targets -------------------------------------------------------------------------------------

    /** On stdout, the newline counts in {@code len} (on a socket it comes after); a soft stop is logged too. */
    @Test
    void stdoutAndSoftStop() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("hello")) {
            String config = config(logs, "http", fe, "log-format %HU\\ %ST", server(origin.port()))
                    .replace("format raw local0", "len 100 format priority local0\n    log stdout len 100 format raw local0");
            FulcrumProcess proxy = HttpKit.serve(config, fe);
            try (proxy; HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/" + "x".repeat(200))).status()).isEqualTo(200);
                assertThat(logs.next()).isEqualTo("<134>/" + "x".repeat(94) + "\n");
                c.close();
                proxy.signal("USR1");
                assertThat(logs.next()).startsWith("<132>Proxy fe stopped (cumulated conns: FE: ");
                proxy.awaitExit(java.time.Duration.ofSeconds(10));
            }
            assertThat(proxy.stdout()).startsWith("/" + "x".repeat(98) + "\nProxy fe stopped (cumulated conns: FE: ");
        }
    }

    // --- syslog headers ------------------------------------------------------------------------------

    @Test
    void syslogHeaders() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO)) {
            String config = """
                    global
                        log-send-hostname myhost
                        log-tag tagx
                        log 127.0.0.1:%1$d local0
                        log 127.0.0.1:%1$d format local local1
                        log 127.0.0.1:%1$d format rfc5424 local2 info
                        log 127.0.0.1:%1$d format short local3 notice
                    listen fe
                        mode tcp
                        bind 127.0.0.1:%2$d
                        log global
                        server s1 127.0.0.1:%3$d
                    """.formatted(logs.port(), fe, origin.port());
            try (FulcrumProcess proxy = TcpProxyKit.serve(config, fe); Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "x")).isEqualTo("x");
                String msg = "Connect from 127.0.0.1:\\d+ to 127.0.0.1:" + fe + " \\(fe/TCP\\)\n";
                String date = "[A-Z][a-z]{2} [ 1-3]\\d \\d{2}:\\d{2}:\\d{2}";
                assertThat(logs.next()).matches("<134>" + date + " myhost tagx\\[\\d+\\]: " + msg);
                assertThat(logs.next()).matches("<142>" + date + " tagx\\[\\d+\\]: " + msg);
                assertThat(logs.next()).matches("<150>1 \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}[+-]\\d{2}:\\d{2} myhost tagx \\d+ - - "
                        + msg);
                logs.assertNone(500); // the short one takes notice and above only
            }
        }
    }
}
