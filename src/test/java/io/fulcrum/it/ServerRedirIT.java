package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server lines that change what happens to a transaction without the server: {@code redir} (GET and HEAD get a 302 to
 * the prefix and their path, the rest goes to the server) and {@code non-stick} (stick store rules skip the server).
 * Expected answers are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerRedirIT {
    private static Path admin;
    private static int redir;
    private static int nonStick;
    private static HttpOrigin origin;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        admin = Files.createTempDirectory("fulcrum-redir").resolve("admin.sock");
        origin = HttpOrigin.ok("origin");
        redir = freePort();
        nonStick = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen redir
                    bind 127.0.0.1:%d
                    server s1 127.0.0.1:%d redir http://img.example.com
                listen non_stick
                    bind 127.0.0.1:%d
                    stick-table type ip size 100 expire 30s
                    stick on src
                    server s1 127.0.0.1:%d non-stick
                """.formatted(admin, redir, origin.port(), nonStick, origin.port()), redir);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        origin.close();
    }

    private static HttpClientConn.Response exchange(int port, String request) throws Exception {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange(request);
        }
    }

    @Test
    void getAndHeadAreRedirectedWithTheirPathAndTheConnectionCloses() throws Exception {
        int before = origin.requests().size();
        try (HttpClientConn c = HttpClientConn.open(redir)) {
            HttpClientConn.Response r = c.exchange("GET /a/b?c=d HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(r.head().raw()).isEqualTo("HTTP/1.1 302 Found\r\ncache-control: no-cache\r\ncontent-length: 0\r\n"
                    + "location: http://img.example.com/a/b?c=d\r\nconnection: close\r\n\r\n");
            assertThat(c.socket.getInputStream().read()).as("closed after the redirect").isEqualTo(-1);
        }
        assertThat(exchange(redir, "HEAD http://x/z HTTP/1.1\r\nHost: x\r\n\r\n").get("location")).isEqualTo("http://img.example.com/z");
        assertThat(origin.requests()).as("requests the server got").hasSize(before);
    }

    @Test
    void otherMethodsAndTargetsWithoutAPathGoToTheServer() throws Exception {
        assertThat(exchange(redir, "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx").bodyText()).isEqualTo("origin");
        assertThat(exchange(redir, "GET http://x HTTP/1.1\r\nHost: x\r\n\r\n").bodyText()).isEqualTo("origin");
    }

    @Test
    void aNonStickServerIsNotStored() throws Exception {
        assertThat(exchange(nonStick, "GET / HTTP/1.1\r\nHost: x\r\n\r\n").bodyText()).isEqualTo("origin");
        assertThat(CliClient.send(admin, "show table non_stick")).doesNotContain("key=");
    }
}
