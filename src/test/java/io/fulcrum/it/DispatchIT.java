package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /** Without an algorithm the dispatch address takes everything; with one (HAProxy warns) the servers do. */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource({"'', dispatched, <NOSRV>", "balance roundrobin, server, s1"})
    void http(String balance, String answer, String logged) throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin dispatched = HttpOrigin.ok("dispatched");
             HttpOrigin server = HttpOrigin.ok("server");
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%b/%s %ST\"",
                     balance + "\ndispatch 127.0.0.1:" + dispatched.port() + "\nserver s1 127.0.0.1:" + server.port()), fe)) {
            if (!balance.isEmpty()) {
                proxy.awaitStderr("dispatch address of backend 'be' will be ignored in balance mode.");
            }
            for (int i = 0; i < 3; i++) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    assertThat(c.exchange("GET / HTTP/1.1\r\nHost: a\r\n\r\n").bodyText()).isEqualTo(answer);
                }
                assertThat(logs.next()).isEqualTo("be/" + logged + " 200\n");
            }
            assertThat((balance.isEmpty() ? server : dispatched).requests()).isEmpty();
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
}
