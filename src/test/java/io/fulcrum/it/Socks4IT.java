package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code socks4 <addr>:<port>}: the connections to a server go through a SOCKS4 proxy (HAProxy's request, user id
 * "HAProxy"), the health checks too with {@code check-via-socks4} or a connect rule's {@code via-socks4}; a proxy that
 * refuses makes the connection fail. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class Socks4IT {

    @Test
    void httpTrafficAndChecksGoThroughTheProxy() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Socks4Proxy socks = Socks4Proxy.start();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%s %ST\"",
                     "option httpchk GET /health\ntimeout check 5s\nserver s1 127.0.0.1:" + origin.port() + " socks4 127.0.0.1:" + socks.port()
                             + " check check-via-socks4 inter 1s"), fe)) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (origin.requests().stream().noneMatch(r -> r.target().equals("/health")) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GET /page HTTP/1.1\r\nHost: a\r\n\r\n").bodyText()).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("s1 200\n");
            assertThat(origin.requests()).extracting(HttpOrigin.Received::target).contains("/health", "/page");
            assertThat(socks.requests()).hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(r -> assertThat(r).isEqualTo(new Socks4Proxy.Request("127.0.0.1", origin.port(), "HAProxy")));
        }
    }

    @Test
    void tcpThroughTheProxy() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Socks4Proxy socks = Socks4Proxy.start();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "log-format \"%s %ts\"",
                     "server s1 127.0.0.1:" + origin.port() + " socks4 127.0.0.1:" + socks.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("s1 --\n");
            assertThat(socks.requests()).containsExactly(new Socks4Proxy.Request("127.0.0.1", origin.port(), "HAProxy"));
        }
    }

    /** A proxy that refuses: the connection fails (no retry here), 503. */
    @Test
    void aRefusalIsAConnectionFailure() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Socks4Proxy refusing = Socks4Proxy.refusing();
             HttpOrigin origin = HttpOrigin.ok("hello");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%s %ST %ts\"",
                     "retries 0\nserver s1 127.0.0.1:" + origin.port() + " socks4 127.0.0.1:" + refusing.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n").status()).isEqualTo(503);
            assertThat(logs.next()).isEqualTo("s1 503 SC\n");
            assertThat(refusing.requests()).hasSize(1);
            assertThat(origin.requests()).isEmpty();
        }
    }
}
