package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code http-send-name-header}: the server's name replaces every field of that name, last in the head (as haproxy
 * 2.6 sends it, also checked with {@code -Dit.proxy=haproxy}), and names the server a redispatched request reaches.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpSendNameHeaderIT {

    @Test
    void theFieldNamesTheServerTheRequestReaches() throws Exception {
        int fe = freePort();
        int dead = FulcrumProcess.refusedPort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "ok"));
             FulcrumProcess p = TcpProxyKit.serve("""
                     defaults
                         mode http
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend fe
                         bind 127.0.0.1:%d
                         default_backend be
                     backend be
                         balance first
                         retries 1
                         option redispatch 1
                         http-send-name-header X-Srv
                         server gone 127.0.0.1:%d
                         server app 127.0.0.1:%d
                     """.formatted(fe, dead, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange("GET / HTTP/1.1\r\nHost: t\r\nX-Srv: forged\r\nY: 1\r\nx-srv: again\r\n\r\n");
            assertThat(r.status()).isEqualTo(200);
            HttpOrigin.Received got = origin.requests(1).get(0);
            List<String> lines = got.head().raw().lines().filter(l -> !l.isEmpty()).toList();
            assertThat(lines.stream().filter(l -> l.toLowerCase().startsWith("x-srv:")).toList()).containsExactly("x-srv: app");
            assertThat(lines.getLast()).as("last field").isEqualTo("x-srv: app");
        }
    }
}
