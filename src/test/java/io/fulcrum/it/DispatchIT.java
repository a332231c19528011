package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dispatch <address>:<port>}: without a {@code balance} algorithm every transaction goes to that address, even
 * when the backend has servers (logged without a server name, as HAProxy); with one (here or in the defaults) the
 * address is ignored, with HAProxy's warning. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DispatchIT {

    @Test
    void httpGoesToTheDispatchAddress() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin dispatched = HttpOrigin.ok("dispatched");
             HttpOrigin server = HttpOrigin.ok("server");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%b/%s %ST\"",
                     "dispatch 127.0.0.1:" + dispatched.port() + "\nserver s1 127.0.0.1:" + server.port()), fe)) {
            for (int i = 0; i < 3; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n").bodyText()).isEqualTo("dispatched");
                }
                assertThat(logs.next()).isEqualTo("be/<NOSRV> 200\n");
            }
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void tcpWithoutServers() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, "log-format \"%b/%s %ts\"", "dispatch 127.0.0.1:" + origin.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("be/<NOSRV> --\n");
        }
    }

    @Test
    void ignoredInBalanceMode() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin dispatched = HttpOrigin.ok("dispatched");
             HttpOrigin server = HttpOrigin.ok("server");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%b/%s %ST\"",
                     "balance roundrobin\ndispatch 127.0.0.1:" + dispatched.port() + "\nserver s1 127.0.0.1:" + server.port()), fe)) {
            proxy.awaitStderr("dispatch address of backend 'be' will be ignored in balance mode.");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n").bodyText()).isEqualTo("server");
            }
            assertThat(logs.next()).isEqualTo("be/s1 200\n");
            assertThat(dispatched.requests()).isEmpty();
        }
    }
}
