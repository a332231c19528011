package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.Socket;
import java.time.Duration;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option transparent} (configuration.txt 4): a backend without a {@code balance} algorithm nor a {@code dispatch}
 * address sends what no cookie chose to the stream's destination (here moved by {@code set-dst-port}), logged without a
 * server name; HAProxy refuses it with an algorithm and ignores it in a frontend. As for {@code dispatch}, a connection
 * to that address is kept for its client connection only, whatever {@code http-reuse} says. Passes against haproxy too
 * ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransparentBackendIT {

    /** Each request goes to its destination, over its client connection's own server connection. */
    @Test
    void httpGoesToTheDestination() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin a = HttpOrigin.ok("a");
             HttpOrigin b = HttpOrigin.ok("b");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe,
                     "log-format \"%b/%s %si:%sp %ST\"\nhttp-request set-dst-port hdr(dst-port)",
                     "http-reuse always\noption transparent"), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(get(c, a.port(), "")).isEqualTo("a");
                assertThat(logs.next()).isEqualTo("be/<NOSRV> 127.0.0.1:" + a.port() + " 200\n");
                assertThat(get(c, a.port(), "")).isEqualTo("a");
                assertThat(logs.next()).isEqualTo("be/<NOSRV> 127.0.0.1:" + a.port() + " 200\n");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(get(c, b.port(), "")).isEqualTo("b");
                assertThat(logs.next()).isEqualTo("be/<NOSRV> 127.0.0.1:" + b.port() + " 200\n");
            }
            assertThat(a.accepted()).isEqualTo(1);
            assertThat(a.requests()).hasSize(2);
            assertThat(b.accepted()).isEqualTo(1);
        }
    }

    /** A persistence cookie still goes to its server; a request without one to the destination. */
    @Test
    void cookieChoosesTheServer() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin server = HttpOrigin.ok("server");
             HttpOrigin destination = HttpOrigin.ok("destination");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe,
                     "log-format \"%b/%s %ST\"\nhttp-request set-dst-port hdr(dst-port)",
                     "option transparent\ncookie SRV\nserver s1 127.0.0.1:" + server.port() + " cookie s1"), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(get(c, destination.port(), "")).isEqualTo("destination");
                assertThat(logs.next()).isEqualTo("be/<NOSRV> 200\n");
                assertThat(get(c, destination.port(), "Cookie: SRV=s1\r\n")).isEqualTo("server");
                assertThat(logs.next()).isEqualTo("be/s1 200\n");
            }
        }
    }

    @Test
    void tcpGoesToTheDestination() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe,
                     "log-format \"%b/%s %si:%sp %ts\"\ntcp-request connection set-dst-port int(" + origin.port() + ")",
                     "option transparent"), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("be/<NOSRV> 127.0.0.1:" + origin.port() + " --\n");
        }
    }

    /** dispatch's connections are as private: a second client connection does not take the first one's. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"dispatch", "transparent"})
    void connectionsStayWithTheirClient(String how) throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("o");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "http-request set-dst-port hdr(dst-port)",
                     "http-reuse always\n" + (how.equals("dispatch") ? "dispatch 127.0.0.1:" + origin.port() : "option transparent")), fe)) {
            for (int i = 1; i <= 2; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    get(c, origin.port(), "");
                    get(c, origin.port(), "");
                }
                assertThat(origin.accepted()).isEqualTo(i);
            }
            assertThat(origin.requests()).extracting(HttpOrigin.Received::connection).containsExactly(1, 1, 2, 2);
        }
    }

    /** HAProxy's alert for the option with an algorithm (the defaults' here), its warning in a frontend. */
    @Test
    void refusedWithBalanceIgnoredInFrontend() throws Exception {
        String withBalance = """
                defaults
                    mode http
                    balance roundrobin
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                backend be
                    option transparent
                """;
        try (FulcrumProcess p = TcpProxyKit.start(withBalance, "-c")) {
            assertThat(p.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(p.stderr()).contains("[ALERT]").contains(" : config : backend 'be' cannot use both transparent and balance mode.");
        }
        String inFrontend = """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%d
                    option transparent
                    transparent
                    http-request return status 200
                """.formatted(freePort());
        try (FulcrumProcess p = TcpProxyKit.start(inFrontend, "-c")) {
            assertThat(p.awaitExit(Duration.ofSeconds(60))).isZero();
            assertThat(p.stderr().lines().filter(l -> l.contains("[WARNING]")).toList()).singleElement().asString()
                    .contains("] : 'transparent' ignored because frontend 'fe' has no backend capability.");
        }
    }

    /** The body of the answer to a GET whose destination port is {@code port}, with extra fields {@code fields}. */
    private static String get(HttpClientConn c, int port, String fields) throws Exception {
        return c.exchange("GET / HTTP/1.1\r\nHost: a\r\ndst-port: " + port + "\r\n" + fields + "\r\n").bodyText();
    }
}
