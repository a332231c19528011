package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Strict rewriting mode (configuration.txt "http-request strict-mode") and the {@code wrew} counter: a rewrite fails
 * when the head, counted in HAProxy's internal form, would outgrow {@code tune.bufsize}. In strict mode (the default)
 * the transaction then fails with a 500 (PR-- for a request rule, PH-- for a response rule) counted as an internal
 * error ({@code eint}); with {@code strict-mode off} the rewrite is skipped. Both count in {@code wrew}: the frontend and
 * its listener, the backend once chosen, the server once known. The same statuses, log lines, boundaries and counters
 * as HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StrictRewriteIT {
    @TempDir
    Path dir;

    private static final String BIG = "a".repeat(2000);

    private String config(int fe, int srv, Path sock) {
        return """
                global
                    log stdout format raw local0
                    tune.bufsize 16384
                    tune.maxrewrite 1024
                    stats socket %3$s level admin
                defaults
                    mode http
                    log global
                    option httplog
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%1$d
                    option socket-stats
                    http-request set-var(txn.p) path
                    http-request strict-mode off if { path /off }
                    http-request set-header X-Big %4$s if { path /off } or { path /on }
                    default_backend be
                backend be
                    http-response strict-mode off if { var(txn.p) -m str /off }
                    http-response set-header X-Big %4$s
                    server s1 127.0.0.1:%2$d
                listen srv
                    bind 127.0.0.1:%2$d
                    http-request return status 200 hdr x-pad "%%[req.hdr(x-want)]"
                """.formatted(fe, srv, sock, BIG);
    }

    /** Sends a request with a field {@code name} of {@code n} bytes; returns the status line of the response. */
    private static String statusLine(int port, String path, String name, int n) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + name + ": " + "p".repeat(n) + "\r\n\r\n").head().startLine();
        }
    }

    /** A request whose X-Want field the server sends back as X-Pad: both heads then weigh what the rewrites must fit beside. */
    private static String get(int port, String path, int want) throws Exception {
        return statusLine(port, path, "X-Want", want);
    }

    @Test
    void aRewriteMustFitInTheBuffer() throws Exception {
        int fe = freePort();
        int srv = freePort();
        Path sock = dir.resolve("stats.sock");
        try (FulcrumProcess proxy = serve(config(fe, srv, sock), fe)) {
            // The response head (status line, content-length, x-pad) and the 2000-byte X-Big fill 16384 bytes exactly.
            assertThat(get(fe, "/", 14237)).isEqualTo("HTTP/1.1 200 OK");
            assertThat(get(fe, "/", 14238)).isEqualTo("HTTP/1.1 500 Internal Server Error");
            // The same for the request head: the largest that fits goes on (and is too large for the server, which
            // refuses it: a request may only fill the buffer less tune.maxrewrite), one byte more fails.
            assertThat(get(fe, "/on", 12000)).isEqualTo("HTTP/1.1 200 OK");
            assertThat(get(fe, "/on", 14245)).isEqualTo("HTTP/1.1 400 Bad request");
            assertThat(get(fe, "/on", 14246)).isEqualTo("HTTP/1.1 500 Internal Server Error");
            // strict-mode off: both rewrites are skipped, the response goes through.
            assertThat(get(fe, "/off", 14300)).isEqualTo("HTTP/1.1 200 OK");

            String log = ReplyErrorfileIT.awaitLines(proxy, 10);
            assertThat(log).containsPattern(" fe be/s1 \\d+/\\d+/\\d+/-1/\\d+ 500 \\d+ - - PH-- .* \"GET / HTTP/1.1\"")
                    .containsPattern(" fe fe/<NOSRV> -1/-1/-1/-1/\\d+ 500 \\d+ - - PR-- .* \"GET /on HTTP/1.1\"")
                    .containsPattern(" fe be/s1 \\d+/\\d+/\\d+/\\d+/\\d+ 200 \\d+ - - ---- .* \"GET /off HTTP/1.1\"");

            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            // Failed: the response of "/" (strict), the request of "/on" (strict, before any backend), both of "/off".
            assertCounts(rows.get("fe/FRONTEND"), "4", "2");
            assertCounts(rows.get("fe/sock-1"), "4", "2");
            assertCounts(rows.get("be/BACKEND"), "2", "1");
            assertCounts(rows.get("be/s1"), "2", "1");
            assertThat(rows.get("fe/FRONTEND").get("dreq")).isEqualTo("0");
            assertThat(rows.get("be/BACKEND").get("dresp")).isEqualTo("0");
            assertThat(rows.get("be/s1").get("dresp")).isEqualTo("0");
        }
    }

    /** A URI and a header value that grow by 2000 bytes: the same boundary (the growth must fit). */
    @Test
    void uriAndValueRewritesFailAtTheSameBoundary() throws Exception {
        int fe = freePort();
        try (FulcrumProcess proxy = serve("""
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request set-uri /u%s if { path /u }
                    http-request replace-header X-Pad (p*) \\1%2$s if { path /r }
                    http-request return status 200
                """.formatted(fe, BIG), fe)) {
            for (String path : new String[] {"/u", "/r"}) {
                assertThat(statusLine(fe, path, "X-Pad", 14260)).as(path).isEqualTo("HTTP/1.1 200 OK");
                assertThat(statusLine(fe, path, "X-Pad", 14261)).as(path).isEqualTo("HTTP/1.1 500 Internal Server Error");
            }
        }
    }

    /**
     * The body that shares the buffer with the head (waited for by {@code option http-buffer-request}, or received with
     * a response's head) counts too, reading having filled the buffer up to {@code tune.bufsize - tune.maxrewrite}: a
     * large body leaves the rewrites {@code tune.maxrewrite} bytes, here room for one 74-byte field and not two
     * (reg-test http-rules/strict_rw_mode.vtc); a small one leaves them the rest of the buffer.
     */
    @Test
    void theBodyInTheBufferLeavesTheRewritesTheReserve() throws Exception {
        int fe = freePort();
        String v = "1234567890".repeat(6);
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "b".repeat(Integer.parseInt(x.head.get("x-body")))));
             FulcrumProcess proxy = serve("""
                global
                    tune.bufsize 2048
                    tune.maxrewrite 128
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                    option http-buffer-request
                frontend fe
                    bind 127.0.0.1:%1$d
                    http-request set-var(txn.p) path
                    http-request set-header x-hdr1 %3$s
                    http-request set-header x-hdr2 %3$s if { path /req2 }
                    default_backend be
                backend be
                    http-response set-header x-hdr1 %3$s
                    http-response set-header x-hdr2 %3$s if { var(txn.p) -m str /res2 }
                    server s1 127.0.0.1:%2$d
                """.formatted(fe, origin.port(), v), fe)) {
            assertThat(post(fe, "/req1", 2000, 2000)).isEqualTo("HTTP/1.1 200 OK");
            assertThat(post(fe, "/req2", 2000, 0)).isEqualTo("HTTP/1.1 500 Internal Server Error");
            assertThat(post(fe, "/req2", 100, 0)).isEqualTo("HTTP/1.1 200 OK");
            assertThat(post(fe, "/res2", 0, 2000)).isEqualTo("HTTP/1.1 500 Internal Server Error");
            assertThat(post(fe, "/res2", 0, 100)).isEqualTo("HTTP/1.1 200 OK");
        }
    }

    /** Sends a request with a body of {@code length} bytes asking for a response body of {@code answer}; returns its status line. */
    private static String post(int port, String path, int length, int answer) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange("POST " + path + " HTTP/1.1\r\nHost: x\r\nX-Body: " + answer + "\r\nContent-Length: " + length
                    + "\r\n\r\n" + "b".repeat(length)).head().startLine();
        }
    }

    /**
     * A failed http-after-response rewrite in strict mode: the response (the server's or the proxy's own) becomes the
     * proxy's 500, which the after-response rules see in turn; when they fail on that 500 as well (here the backend's
     * large errorfile), it goes as it is. With {@code strict-mode off} the rewrite is skipped.
     */
    @Test
    void aFailedAfterResponseRewriteTurnsTheResponseIntoA500() throws Exception {
        int fe = freePort();
        int srv = freePort();
        Path sock = dir.resolve("stats.sock");
        Path page = dir.resolve("big500.http");
        String pad = "e".repeat(14500);
        java.nio.file.Files.writeString(page, "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n"
                + "content-length: " + pad.length() + "\r\n\r\n" + pad);
        try (FulcrumProcess proxy = serve("""
                global
                    log stdout format raw local0
                    tune.bufsize 16384
                    tune.maxrewrite 1024
                    stats socket %3$s level admin
                defaults
                    mode http
                    log global
                    option httplog
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%1$d
                    http-request set-var(txn.p) path
                    http-request return status 403 hdr x-pad "%%[req.hdr(x-want)]" if { path /ret }
                    http-after-response strict-mode off if { var(txn.p) -m str /off }
                    http-after-response set-header X-Big %4$s
                    http-after-response set-header X-After yes
                    default_backend be
                backend be
                    errorfile 500 %5$s
                    server s1 127.0.0.1:%2$d
                listen srv
                    bind 127.0.0.1:%2$d
                    http-request return status 200 hdr x-pad "%%[req.hdr(x-want)]"
                """.formatted(fe, srv, sock, BIG, page), fe)) {
            HttpClientConn.Response small = exchange(fe, "/", 100);
            assertThat(small.status()).isEqualTo(200);
            assertThat(small.get("x-after")).isEqualTo("yes");
            assertThat(small.get("x-big")).isEqualTo(BIG);
            // The server's response cannot take X-Big: the backend's 500 replaces it, and cannot take it either.
            HttpClientConn.Response server = exchange(fe, "/", 14300);
            assertThat(server.status()).isEqualTo(500);
            assertThat(server.bodyText()).isEqualTo(pad);
            assertThat(server.get("x-after")).as("a const reply: no after-response rule").isNull();
            // The proxy's own 403 cannot take it: the frontend's 500 replaces it, and passes the rules.
            HttpClientConn.Response own = exchange(fe, "/ret", 14300);
            assertThat(own.status()).isEqualTo(500);
            assertThat(own.get("x-after")).isEqualTo("yes");
            assertThat(own.get("x-big")).isEqualTo(BIG);
            HttpClientConn.Response off = exchange(fe, "/off", 14300);
            assertThat(off.status()).isEqualTo(200);
            assertThat(off.get("x-after")).isEqualTo("yes");
            assertThat(off.get("x-big")).as("skipped").isNull();

            String log = ReplyErrorfileIT.awaitLines(proxy, 8);
            assertThat(log).containsPattern(" fe be/s1 \\d+/\\d+/\\d+/-1/\\d+ 500 \\d+ - - PH-- .* \"GET / HTTP/1.1\"")
                    .containsPattern(" fe fe/<NOSRV> -1/-1/-1/-1/\\d+ 500 \\d+ - - PR-- .* \"GET /ret HTTP/1.1\"")
                    .containsPattern(" fe be/s1 \\d+/\\d+/\\d+/\\d+/\\d+ 200 \\d+ - - ---- .* \"GET /off HTTP/1.1\"");
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            // Failed: on the server's response and its 500, on the 403 (not its 500), on the response to /off.
            assertThat(rows.get("fe/FRONTEND").get("wrew")).isEqualTo("4");
            assertThat(rows.get("be/BACKEND").get("wrew")).isEqualTo("3");
            assertThat(rows.get("be/s1").get("wrew")).isEqualTo("3");
        }
    }

    private static HttpClientConn.Response exchange(int port, String path, int want) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\nX-Want: " + "p".repeat(want) + "\r\n\r\n");
        }
    }

    private static void assertCounts(Map<String, String> row, String wrew, String eint) {
        assertThat(row.get("wrew")).as("wrew").isEqualTo(wrew);
        assertThat(row.get("eint")).as("eint").isEqualTo(eint);
    }

    /**
     * A reply whose log-format body does not fit in a buffer beside its head is not sent (HAProxy's http_reply_message):
     * "return" then fails with a 500 counted as an internal error and not timed (TR -1), "deny" with a 500 still counted
     * as a denial. Here the head takes 163 bytes (155 for "200 OK") and the body's block 8: 16221 bytes of body fit.
     */
    @Test
    void aReplyMustFitInTheBuffer() throws Exception {
        int fe = freePort();
        Path sock = dir.resolve("stats.sock");
        try (FulcrumProcess proxy = serve("""
                global
                    log stdout format raw local0
                    stats socket %2$s level admin
                defaults
                    mode http
                    log global
                    option httplog
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%1$d
                    http-request deny status 403 content-type text/plain lf-string "%%[req.hdr(x)]%%[req.hdr(x)]%%[req.hdr(z)]" if { path /deny }
                    http-request return status 200 content-type text/plain lf-string "%%[req.hdr(x)]%%[req.hdr(x)]%%[req.hdr(z)]"
                """.formatted(fe, sock), fe)) {
            String x = "X: " + "a".repeat(8000) + "\r\nZ";
            assertThat(statusLine(fe, "/", x, 221)).isEqualTo("HTTP/1.1 200 OK");
            assertThat(statusLine(fe, "/", x, 222)).isEqualTo("HTTP/1.1 500 Internal Server Error");
            assertThat(statusLine(fe, "/deny", x, 214)).isEqualTo("HTTP/1.1 403 Forbidden");
            assertThat(statusLine(fe, "/deny", x, 215)).isEqualTo("HTTP/1.1 500 Internal Server Error");

            String log = ReplyErrorfileIT.awaitLines(proxy, 4);
            assertThat(log).containsPattern(" fe fe/<NOSRV> -1/-1/-1/-1/\\d+ 500 208 - - PR-- .* \"GET / HTTP/1.1\"")
                    .containsPattern(" fe fe/<NOSRV> \\d+/-1/-1/-1/\\d+ 500 208 - - PR-- .* \"GET /deny HTTP/1.1\"");
            Map<String, String> row = StatsIT.rows(CliClient.send(sock, "show stat")).get("fe/FRONTEND");
            assertThat(row.get("eint")).isEqualTo("1");
            assertThat(row.get("dreq")).isEqualTo("2");
            assertThat(row.get("intercepted")).isEqualTo("1");
        }
    }
}
