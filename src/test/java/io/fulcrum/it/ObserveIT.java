package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code observe layer7} with {@code error-limit} and {@code on-error}: a server whose health check passes but whose
 * real responses are 5xx is taken down after that many errors in a row, with HAProxy's words; its check brings it
 * back. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ObserveIT {

    private static String get(int port, String path) throws Exception {
        try (Socket s = connect(port)) {
            send(s, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            String r = readToEof(s, 10_000);
            return r.substring(0, r.indexOf("\r\n"));
        }
    }

    @Test
    void consecutiveServerErrorsMarkTheServerDown() throws Exception {
        try (Origin origin = Origin.start(s -> {
            InputStream in = s.getInputStream();
            byte[] b = new byte[4096];
            int n = in.read(b);
            String req = n < 0 ? "" : new String(b, 0, n, StandardCharsets.ISO_8859_1);
            send(s, req.startsWith("GET /health") || req.startsWith("GET /fine")
                    ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                    : req.startsWith("GET /gone") ? "HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    : "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        })) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode http
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 30s rise 1 fall 3 observe layer7 error-limit 3 on-error mark-down
                    """.formatted(fe, origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                assertThat(get(fe, "/fine")).isEqualTo("HTTP/1.1 200 OK");
                // Two errors, a success, a 501 (not an error for HAProxy), two errors: never three in a row.
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                assertThat(get(fe, "/fine")).isEqualTo("HTTP/1.1 200 OK");
                assertThat(get(fe, "/gone")).isEqualTo("HTTP/1.1 501 Not Implemented");
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                Thread.sleep(500);
                assertThat(p.stderr()).doesNotContain("is DOWN");
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                // No check duration: no check ran (haproxy 2.6 says none)
                p.awaitStderr("Server be/s1 is DOWN, reason: Health analyze, info: \"Detected 3 consecutive errors, last one was: "
                        + "Wrong http response\". 0 active and 0 backup servers left.");
                assertThat(get(fe, "/fine")).isEqualTo("HTTP/1.1 503 Service Unavailable"); // haproxy's own: no server left
            }
        }
    }

    /**
     * The DOWN line of a health analysis counts the stream that saw the last error among the server's sessions, as
     * HAProxy's, whose verdict comes while that stream is on the server (the origin keeps its connection open after
     * each 503, so that haproxy's count does not depend on when it sees the close).
     */
    @Test
    void theDownLineCountsTheStreamThatSawTheLastError() throws Exception {
        try (Origin origin = Origin.start(s -> {
            InputStream in = s.getInputStream();
            byte[] b = new byte[4096];
            int n;
            while ((n = in.read(b)) > 0) {
                String req = new String(b, 0, n, StandardCharsets.ISO_8859_1);
                send(s, req.startsWith("GET /health") ? "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
                        : "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
            }
        })) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode http
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        timeout check 5s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        option httpchk GET /health
                        server s1 127.0.0.1:%d check inter 30s observe layer7 error-limit 2 on-error mark-down
                    """.formatted(fe, origin.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                assertThat(get(fe, "/a")).isEqualTo("HTTP/1.1 503 Service Unavailable");
                p.awaitStderr("Server be/s1 is DOWN, reason: Health analyze, info: \"Detected 2 consecutive errors, last one was: "
                        + "Wrong http response\". 0 active and 0 backup servers left. 1 sessions active, 0 requeued, 0 remaining in queue.\n");
            }
        }
    }

    /**
     * {@code observe layer4} counts each failed connection attempt, retries included, as HAProxy's: with {@code retries 3},
     * one client's four refused attempts reach {@code error-limit 4}; the stream still counts on the server then.
     */
    @Test
    void eachRefusedAttemptCountsRetriesIncluded() throws Exception {
        int refused = FulcrumProcess.refusedPort();
        try (Origin checked = Origin.start(s -> { })) {
            int fe = freePort();
            String cfg = """
                    defaults
                        mode tcp
                        retries 3
                        timeout connect 200ms
                        timeout client 5s
                        timeout server 5s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d check port %d inter 30s observe layer4 error-limit 4 on-error mark-down
                    """.formatted(fe, refused, checked.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                try (Socket s = connect(fe)) {
                    send(s, "x");
                    readToEof(s, 10_000);
                } catch (SocketException reset) {
                    // the server refused: the proxy closes the client's connection, reset or not
                }
                p.awaitStderr("Server be/s1 is DOWN, reason: Health analyze, info: \"Detected 4 consecutive errors, last one was: "
                        + "L4 unsuccessful connection\". 0 active and 0 backup servers left. 1 sessions active, 0 requeued, 0 remaining in queue.\n");
            }
        }
    }

    /**
     * {@code hanafail} counts each time {@code error-limit} errors in a row were seen, whatever {@code on-error} does;
     * {@code show stat} shows it for servers that observe (checked or not) and for those tracking one, empty elsewhere.
     */
    @Test
    void hanafailCountsTheAnalysesThatFailed() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int refused = FulcrumProcess.refusedPort();
        try (Origin checked = Origin.start(s -> { })) {
            int fe = freePort();
            String cfg = """
                    global
                        stats socket %s level admin
                    defaults
                        mode tcp
                        retries 0
                        timeout connect 2s
                        timeout client 5s
                        timeout server 5s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    backend be
                        server s1 127.0.0.1:%d check port %d inter 30s observe layer4 error-limit 2 on-error fastinter
                    backend other
                        server s2 127.0.0.1:%d check port %d inter 30s
                        server s3 127.0.0.1:%d track be/s1
                        server s4 127.0.0.1:%d observe layer4
                    """.formatted(cli, fe, refused, checked.port(), refused, checked.port(), refused, refused);
            try (FulcrumProcess p = serve(cfg, fe)) {
                for (int i = 0; i < 5; i++) {
                    try (Socket s = connect(fe)) {
                        send(s, "x");
                        readToEof(s, 10_000);
                    } catch (SocketException reset) {
                        // the server refused: the proxy closes the client's connection, reset or not
                    }
                }
                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                assertThat(rows.get("be/s1").get("hanafail")).isEqualTo("2");
                assertThat(rows.get("be/s1").get("status")).isEqualTo("UP"); // fastinter only brings the next check forward
                assertThat(rows.get("other/s2").get("hanafail")).isEmpty();
                assertThat(rows.get("other/s3").get("hanafail")).isEqualTo("0");
                assertThat(rows.get("other/s4").get("hanafail")).isEqualTo("0");
            }
        }
    }
}
