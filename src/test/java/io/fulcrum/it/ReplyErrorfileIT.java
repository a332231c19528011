package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * deny, return and tarpit answering with an {@code errorfile} or an {@code http-errors} section's file: the bytes
 * and the log lines are those HAProxy 2.6 sends and writes for the same configuration (-Dit.proxy=haproxy). The file
 * goes out as the proxy's errorfiles do (lower-case names, trimmed values, its own Connection header); the log shows
 * the rule's status, whatever the file's status line says.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplyErrorfileIT {
    @TempDir
    Path dir;

    private String config(int fe, int be) throws Exception {
        Files.writeString(dir.resolve("200.http"), "HTTP/1.0 200 OK\r\nCache-Control: no-cache\r\nContent-Type: text/plain\r\n"
                + "X-Custom:   v  \r\nConnection: close\r\n\r\npong\n");
        Files.writeString(dir.resolve("403.http"), "HTTP/1.1 403 Forbidden\r\ncontent-length: 5\r\n\r\nnope\n");
        Files.writeString(dir.resolve("503.http"), "HTTP/1.1 503 Nope\r\ncontent-length: 3\r\n\r\nbye");
        return """
                global
                    log stdout format raw local0
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
                    http-request return errorfile %2$s/200.http if { path /a }
                    http-request return status 299 errorfile %2$s/403.http if { path /b }
                    http-request deny errorfile %2$s/200.http if { path /c }
                    http-request deny errorfiles site if { path /d }
                    http-request return status 404 errorfiles site if { path /e }
                    http-request return status 503 errorfiles site if { path /f }
                    http-request return errorfile /dev/null if { path /g }
                    http-request return status 403 default-errorfiles if { path /h }
                    http-request deny status 403 content-type text/plain string x if { path /i }
                    default_backend be
                backend be
                    http-response deny errorfile %2$s/200.http if { var(txn.p) -m str /r1 }
                    http-response return status 503 errorfiles site if { var(txn.p) -m str /r2 }
                    http-response deny errorfiles site if { var(txn.p) -m str /r3 }
                    server s1 127.0.0.1:%3$d
                http-errors site
                    errorfile 403 %2$s/403.http
                    errorfile 503 %2$s/503.http
                """.formatted(fe, dir, be);
    }

    private static final String FILE200 = "HTTP/1.0 200 OK\r\ncache-control: no-cache\r\ncontent-type: text/plain\r\nx-custom: v\r\n\r\npong\n";
    private static final String FILE403 = "HTTP/1.1 403 Forbidden\r\ncontent-length: 5\r\n\r\nnope\n";

    @Test
    void requestRulesSendTheFilesAsHaproxy() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                // The file asks to close and has no length: the connection ends with it.
                assertThat(c.exchange(get("/a")).text()).isEqualTo(FILE200);
                c.awaitClosed(3000);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/b")).text()).isEqualTo(FILE403);
                assertThat(c.exchange(get("/d")).text()).isEqualTo(FILE403);
                // A status the section lacks: the bare reply.
                assertThat(c.exchange(get("/e")).text()).isEqualTo("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
                assertThat(c.exchange(get("/f")).text()).isEqualTo("HTTP/1.1 503 Nope\r\ncontent-length: 3\r\n\r\nbye");
                assertThat(c.exchange(get("/c")).text()).isEqualTo(FILE200);
                c.awaitClosed(3000);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                // An empty file: nothing is sent.
                c.send(get("/g"));
                c.awaitClosed(3000);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                // The log says who answered by the action, not by the kind of reply: return "L", deny "P".
                assertThat(c.exchange(get("/h")).status()).isEqualTo(403);
                assertThat(c.exchange(get("/i")).text()).isEqualTo("HTTP/1.1 403 Forbidden\r\ncontent-length: 1\r\ncontent-type: text/plain\r\n\r\nx");
            }
            String log = awaitLines(proxy, 9);
            assertThat(log).containsPattern(line("fe/<NOSRV>", 200, "LR--", "/a"))
                    .containsPattern(line("fe/<NOSRV>", 299, "LR--", "/b"))
                    .containsPattern(line("fe/<NOSRV>", 403, "PR--", "/c"))
                    .containsPattern(line("fe/<NOSRV>", 403, "PR--", "/d"))
                    .containsPattern(line("fe/<NOSRV>", 404, "LR--", "/e"))
                    .containsPattern(line("fe/<NOSRV>", 503, "LR--", "/f"))
                    .containsPattern(line("fe/<NOSRV>", 200, "LR--", "/g"))
                    .containsPattern(line("fe/<NOSRV>", 403, "LR--", "/h"))
                    .containsPattern(line("fe/<NOSRV>", 403, "PR--", "/i"));
        }
    }

    @Test
    void responseRulesSendTheFilesAsHaproxy() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/r2")).text()).isEqualTo("HTTP/1.1 503 Nope\r\ncontent-length: 3\r\n\r\nbye");
                assertThat(c.exchange(get("/r3")).text()).isEqualTo("HTTP/1.1 502 Bad Gateway or Proxy Error\r\ncontent-length: 0\r\n\r\n");
                assertThat(c.exchange(get("/r1")).text()).isEqualTo(FILE200);
                c.awaitClosed(3000);
            }
            String log = awaitLines(proxy, 3);
            assertThat(log).containsPattern(line("be/s1", 502, "PH--", "/r1"))
                    .containsPattern(line("be/s1", 503, "LH--", "/r2"))
                    .containsPattern(line("be/s1", 502, "PH--", "/r3"));
        }
    }

    /**
     * An error of a backend without its own errorfile for the status gets the frontend's (HAProxy's http_error_message():
     * the backend's, the frontend's, the built-in page); the log shows the error's status, not the file's.
     */
    @Test
    void theFrontendsErrorfileServesWhenTheBackendHasNone() throws Exception {
        int fe = freePort();
        int be = FulcrumProcess.refusedPort();
        Files.writeString(dir.resolve("403.http"), FILE403);
        String cfg = """
                global
                    log stdout format raw local0
                defaults
                    mode http
                    log global
                    option httplog
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    errorfile 503 %s/403.http
                    default_backend be
                backend be
                    retries 0
                    server s1 127.0.0.1:%d
                """.formatted(fe, dir, be);
        try (FulcrumProcess proxy = serve(cfg, fe); HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/x")).text()).isEqualTo(FILE403);
            assertThat(awaitLines(proxy, 1)).containsPattern(line("be/s1", 503, "SC--", "/x"));
        }
    }

    private static String line(String route, int status, String state, String path) {
        return " fe " + route + " [-0-9]+/[-0-9]+/[-0-9]+/[-0-9]+/\\d+ " + status + " \\d+ - - " + state + " .* \"GET " + path + " HTTP/1.1\"";
    }

    /** The proxy's stdout once it holds {@code n} log lines (they are written when each stream ends). */
    static String awaitLines(FulcrumProcess proxy, int n) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            String out = proxy.stdout();
            if (out.lines().filter(l -> l.contains("\"GET ")).count() >= n) {
                return out;
            }
            Thread.sleep(50);
        }
        return proxy.stdout();
    }
}
