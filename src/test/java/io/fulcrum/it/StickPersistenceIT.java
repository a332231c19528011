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
 * Server persistence through stick tables with real clients: {@code stick on src} pins each client address to the
 * server it first got despite round robin; {@code stick store-response} + {@code stick match} pin by a session id the
 * server gave. Expected outputs are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StickPersistenceIT {
    private static Path admin;
    private static int bySource;
    private static int bySession;
    private static HttpOrigin s1;
    private static HttpOrigin s2;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        admin = Files.createTempDirectory("fulcrum-persist").resolve("admin.sock");
        s1 = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Sess: one\r\n\r\ns1"));
        s2 = HttpOrigin.start(x -> x.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Sess: two\r\n\r\ns2"));
        bySource = freePort();
        bySession = freePort();
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen by_source
                    bind 127.0.0.1:%d
                    balance roundrobin
                    stick-table type ip size 100 expire 30s
                    stick on src
                    server s1 127.0.0.1:%d
                    server s2 127.0.0.1:%d
                listen by_session
                    bind 127.0.0.1:%d
                    balance roundrobin
                    stick-table type string len 16 size 100 expire 30s
                    stick match req.hdr(x-sess)
                    stick store-response res.hdr(x-sess)
                    server s1 127.0.0.1:%d
                    server s2 127.0.0.1:%d
                """.formatted(admin, bySource, s1.port(), s2.port(), bySession, s1.port(), s2.port()), bySource);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        s1.close();
        s2.close();
    }

    private static String get(String from, int port, String headers) throws Exception {
        try (HttpClientConn c = HttpClientConn.openFrom(from, port)) {
            return c.exchange("GET / HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n").bodyText();
        }
    }

    @Test
    void stickOnSourcePinsEachClientToItsFirstServer() throws Exception {
        String first = get("127.0.0.2", bySource, "");
        String second = get("127.0.0.3", bySource, "");
        assertThat(second).isNotEqualTo(first); // round robin between new clients
        for (int i = 0; i < 4; i++) {
            assertThat(get("127.0.0.2", bySource, "")).isEqualTo(first);
            assertThat(get("127.0.0.3", bySource, "")).isEqualTo(second);
        }
        String table = CliClient.send(admin, "show table by_source").replaceAll("(?m)^0x[0-9a-f]+:", "0x:").replaceAll(" exp=\\d+", "");
        assertThat(table).contains("0x: key=127.0.0.2 use=0 server_id=" + first.substring(1) + " server_key=" + first + "\n")
                .contains("0x: key=127.0.0.3 use=0 server_id=" + second.substring(1) + " server_key=" + second + "\n");
        // The CLI can move a client: the entry names the other server
        String other = first.equals("s1") ? "2" : "1";
        assertThat(CliClient.send(admin, "clear table by_source key 127.0.0.2")).isEqualTo("\n");
        assertThat(CliClient.send(admin, "set table by_source key 127.0.0.2 data.server_id " + other)).isEqualTo("\n");
        assertThat(get("127.0.0.2", bySource, "")).isEqualTo("s" + other);
    }

    @Test
    void aSessionIdStoredFromTheResponseIsMatchedOnTheRequest() throws Exception {
        assertThat(get("127.0.0.4", bySession, "X-Sess: two\r\n")).isIn("s1", "s2"); // nothing stored yet: round robin
        get("127.0.0.4", bySession, ""); // both servers answered once: both ids are stored
        for (int i = 0; i < 3; i++) {
            assertThat(get("127.0.0.4", bySession, "X-Sess: one\r\n")).isEqualTo("s1");
            assertThat(get("127.0.0.4", bySession, "X-Sess: two\r\n")).isEqualTo("s2");
        }
    }
}
