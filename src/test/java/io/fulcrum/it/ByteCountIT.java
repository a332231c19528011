package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bytes a transaction counts (log %B and %U, the bin/bout of {@code show stat}) as HAProxy 2.6 counts them: in
 * HTTP mode not the wire's bytes but the HTX data of each message as the proxy received or produced it (a head is
 * 20 bytes, its start line's strings, each field's name and value, 1 for its end; a body its payload, without chunk
 * framing; a chunked body 1 more for the end of its trailers, and their fields), whatever the rules or the HTTP/1
 * output change later; after an upgrade, and in TCP mode, the bytes received. Each number is the one HAProxy 2.6.12
 * logs for the same exchange: the test passes against it (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ByteCountIT {
    /** "GET /x HTTP/1.1" with "host: a": 20 + 3 + 8 + the path, 5 for the field, 1 for the end of headers. */
    private static int getData(String path) {
        return 37 + path.length();
    }

    /**
     * GET {path} with "host: a" on a new connection: %b, the status and %B that HAProxy 2.6.12 logs (%U is
     * {@link #getData}); a line with a # is a comment.
     */
    private static final String GETS = """
            # from the server: head and payload as received, whatever HTTP/1 framing, the rules and the output change
            /nocl204 be 204 42
            /cl204 be 204 57
            # (framing fields that HTTP/1 output drops count)
            /te204 be 204 66
            /cl100 be 200 106
            /chunked be 200 70
            /trailers be 200 74
            /interim be 200 142
            /reason be 200 64
            /connection be 200 66
            /connclose be 200 51
            /until-close be 200 45
            /cut be 200 56
            /add-req be 200 51
            /add-res be 200 51
            /add-after be 200 51
            # 72 for the 103 of early-hint
            /hint be 200 123
            /nothing be 502 209
            /slow be 504 198
            # the proxy's own: their HTX data, the after-response rules' fields included; an errorfile's Connection too
            /ret fe 200 76
            /ret404 fe 404 56
            /redir fe 302 83
            /deny fe 403 192
            /after-deny fe 403 209
            /deny500 fe 500 68
            /auth fe 401 246
            /down down 503 121
            """;

    private static final String WS_101 = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";

    /** What the origin answers, by path. */
    private static void respond(HttpOrigin.Exchange x) throws Exception {
        x.readBody();
        switch (x.target()) {
            case "/nocl204" -> x.send("HTTP/1.1 204 No Content\r\n\r\n");
            case "/cl204" -> x.send("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n");
            case "/te204" -> x.send("HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n");
            case "/cl100" -> x.send("HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            case "/chunked" -> x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
            case "/trailers" -> x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nx-t: abc\r\nx-u: 1\r\n\r\n");
            case "/interim" -> x.send("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            case "/reason" -> x.send("HTTP/1.1 200 Fine Thanks\r\nContent-Length: 2\r\nX-A: b\r\n\r\nok");
            case "/connection" -> x.send("HTTP/1.1 200 OK\r\nConnection: Keep-Alive, x-foo\r\nContent-Length: 2\r\n\r\nok");
            case "/connclose" -> {
                x.send("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
                x.close();
            }
            case "/until-close" -> {
                x.send("HTTP/1.1 200 OK\r\n\r\nuntil-close");
                x.close();
            }
            case "/cut" -> {
                x.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabcde");
                x.close();
            }
            case "/head" -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n");
            case "/nothing" -> x.close();
            case "/slow" -> {
                Thread.sleep(1500);
                x.close();
            }
            case "/ws" -> {
                x.send(WS_101 + "SERVERDATA");
                byte[] got = x.socket.getInputStream().readNBytes(12);
                x.send("ECHO" + new String(got, StandardCharsets.ISO_8859_1));
                x.close();
            }
            default -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        }
    }

    @Test
    void httpCountsWhatHaproxyCounts() throws Exception {
        int fe = freePort();
        int tcp = freePort();
        int refused = freePort();
        Path dir = Files.createTempDirectory("bytecount");
        Path sock = dir.resolve("stats.sock");
        Path errorfile = dir.resolve("503.http");
        Files.writeString(errorfile, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                + "Cache-Control: no-cache\r\n\r\nsorry, down\n");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(ByteCountIT::respond);
             FulcrumProcess proxy = TcpProxyKit.serve("""
                     global
                         stats socket %s level admin
                         log 127.0.0.1:%d format raw local0
                     defaults
                         log global
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 1s
                         timeout tunnel 5s
                     frontend fe
                         bind 127.0.0.1:%d
                         log-format "%%b %%{+Q}r %%ST %%B %%U"
                         http-request set-var(txn.p) path
                         http-request early-hint link "</style.css>; rel=preload" if { path /hint }
                         http-request auth realm x if { path /auth }
                         http-request return status 200 content-type text/plain string hello if { path /ret }
                         http-request return status 404 if { path /ret404 }
                         http-request redirect location /x if { path /redir }
                         http-request deny if { path /deny /after-deny }
                         http-request deny status 500 if { path /deny500 }
                         http-request wait-for-body time 5s if { path /wfb }
                         http-request set-header x-added 1234567890 if { path /add-req }
                         http-response set-header x-added 1234567890 if { var(txn.p) -m str /add-res }
                         http-after-response set-header x-after 1234567890 if { var(txn.p) -m str /add-after /after-deny }
                         use_backend down if { path /down }
                         default_backend be
                     backend be
                         option forwardfor
                         server s1 127.0.0.1:%d
                     backend down
                         errorfile 503 %s
                     listen tcp
                         mode tcp
                         bind 127.0.0.1:%d
                         log-format "%%b tcp %%B %%U"
                         tcp-request inspect-delay 2s
                         tcp-request content reject if { req.payload(0,3) -m str REJ }
                         server s1 127.0.0.1:%d
                     listen refused
                         mode tcp
                         retries 1
                         timeout connect 300ms
                         bind 127.0.0.1:%d
                         log-format "%%b tcp %%B %%U"
                         server s1 127.0.0.1:%d
                     """.formatted(sock, logs.port(), fe, origin.port(), errorfile, tcp, origin.port(), refused, freePort()), fe)) {
            Counted sums = new Counted();
            for (String row : GETS.lines().filter(l -> !l.startsWith("#")).toList()) {
                String[] f = row.split(" ");
                sums.get(logs, fe, "GET " + f[0] + " HTTP/1.1\r\nhost: a\r\n\r\n",
                        f[1] + " \"GET " + f[0] + " HTTP/1.1\" " + f[2] + " " + f[3] + " " + getData(f[0]));
            }
            // The request counts as received: its Connection fields cleaned of close and keep-alive (an empty one goes),
            // an absolute URI as is, the body's payload, 1 for the end of a chunked one's trailers.
            sums.get(logs, fe, "GET /ok HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n", "be \"GET /ok HTTP/1.1\" 200 51 40");
            sums.get(logs, fe, "GET http://a/ok HTTP/1.1\r\nhost: a\r\n\r\n", "be \"GET http://a/ok HTTP/1.1\" 200 51 48");
            sums.get(logs, fe, "GET /ok HTTP/1.1\r\nhost:    a   \r\nconnection: keep-alive, foo\r\nfoo: 1\r\n\r\n",
                    "be \"GET /ok HTTP/1.1\" 200 51 57");
            sums.get(logs, fe, "POST /ok HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\n\r\nhello", "be \"POST /ok HTTP/1.1\" 200 51 61");
            sums.get(logs, fe, "POST /ok HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n",
                    "be \"POST /ok HTTP/1.1\" 200 51 74");
            sums.get(logs, fe, "POST /ok HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nx-t: v\r\n\r\n",
                    "be \"POST /ok HTTP/1.1\" 200 51 75");
            // No body for HEAD.
            sums.get(logs, fe, "HEAD /head HTTP/1.1\r\nhost: a\r\n\r\n", "be \"HEAD /head HTTP/1.1\" 200 50 43");
            sums.get(logs, fe, "HEAD /deny HTTP/1.1\r\nhost: a\r\n\r\n", "fe \"HEAD /deny HTTP/1.1\" 403 99 43");
            sums.get(logs, fe, "HEAD /ret HTTP/1.1\r\nhost: a\r\n\r\n", "fe \"HEAD /ret HTTP/1.1\" 200 71 42");
            // Told to go on (100 Continue, 40) while a rule waits for the body.
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("POST /wfb HTTP/1.1\r\nhost: a\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\n");
                assertThat(HttpWire.status(c.readHead())).isEqualTo(100);
                c.send("ok");
                assertThat(c.read().status()).isEqualTo(200);
            }
            sums.line(logs, "be \"POST /wfb HTTP/1.1\" 200 91 77");
            // After an upgrade, the bytes of the tunnel as they come, each way.
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET /ws HTTP/1.1\r\nhost: a\r\nconnection: upgrade\r\nupgrade: websocket\r\n"
                        + "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
                assertThat(HttpWire.status(c.readHead())).isEqualTo(101);
                assertThat(new String(c.in().readNBytes(10), StandardCharsets.ISO_8859_1)).isEqualTo("SERVERDATA");
                c.send("CLIENTDATA12");
                assertThat(new String(c.in().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("ECHOCLIENTDATA12");
            }
            sums.line(logs, "be \"GET /ws HTTP/1.1\" 101 158 126");
            // A request that cannot be parsed: no transaction, nothing counted.
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GET /ok HTTP/1.1\r\nho st: a\r\n\r\n").status()).isEqualTo(400);
            }
            assertThat(logs.next()).isEqualTo("fe \"<BADREQ>\" 400 0 0\n");

            // show stat: the same figures, per proxy.
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            assertThat(rows.get("fe/FRONTEND")).containsEntry("bin", Long.toString(sums.in("")))
                    .containsEntry("bout", Long.toString(sums.out("")));
            assertThat(rows.get("be/BACKEND")).containsEntry("bin", Long.toString(sums.in("be")))
                    .containsEntry("bout", Long.toString(sums.out("be")));
            assertThat(rows.get("be/s1")).containsEntry("bin", Long.toString(sums.in("be")))
                    .containsEntry("bout", Long.toString(sums.out("be")));

            // Mode tcp: what the client sent counts, even when a rule rejects it or the server refuses it (the bytes
            // that came while the proxy retried, 300 ms after the refusal).
            try (Socket s = TcpProxyKit.connect(tcp)) {
                s.getOutputStream().write("REJECT1234".getBytes(StandardCharsets.US_ASCII));
                assertThat(s.getInputStream().read()).isEqualTo(-1);
            }
            assertThat(logs.next()).isEqualTo("tcp tcp 0 10\n");
            try (Socket s = TcpProxyKit.connect(refused)) {
                s.getOutputStream().write("0123456789".getBytes(StandardCharsets.US_ASCII));
                assertThat(s.getInputStream().read()).isEqualTo(-1);
            }
            assertThat(logs.next()).isEqualTo("refused tcp 0 10\n");
        }
    }

    /** The %B and %U of the lines read, per backend ("" for all), to compare with the stats. */
    private static final class Counted {
        private final Map<String, long[]> sums = new java.util.HashMap<>();

        /** Sends {@code request} on a new connection, reads the response, then expects {@code line}. */
        void get(SyslogListener logs, int port, String request, String line) throws Exception {
            try (HttpClientConn c = HttpClientConn.open(port)) {
                c.send(request);
                drain(c.in(), request.startsWith("HEAD "));
            }
            line(logs, line);
        }

        void line(SyslogListener logs, String line) throws Exception {
            assertThat(logs.next()).isEqualTo(line + "\n");
            String[] f = line.split(" ");
            add("", f);
            add(f[0], f);
        }

        private void add(String key, String[] f) {
            long[] s = sums.computeIfAbsent(key, k -> new long[2]);
            s[0] += Long.parseLong(f[f.length - 1]);
            s[1] += Long.parseLong(f[f.length - 2]);
        }

        long in(String backend) {
            return sums.get(backend)[0];
        }

        long out(String backend) {
            return sums.get(backend)[1];
        }
    }

    /**
     * Reads responses until the final one is complete, or the connection closes (a body delimited by the close, or
     * cut): interim responses first.
     */
    private static void drain(InputStream in, boolean head) throws IOException {
        while (true) {
            HttpWire.Head h = HttpWire.readHead(in);
            if (h == null) {
                return;
            }
            int status = HttpWire.status(h);
            if (status / 100 == 1) {
                continue;
            }
            try {
                HttpWire.responseBody(in, h, head ? "HEAD" : "GET").readAllBody();
            } catch (IOException cut) {
                // the server cut it: the count is what came
            }
            return;
        }
    }
}
