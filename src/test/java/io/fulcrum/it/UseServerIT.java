package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code use-server}: the first matching rule naming a server that is up wins over the algorithm (checked against haproxy). */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UseServerIT {

    @Test
    void rulesPickTheServerAndSkipOnesThatAreDown() throws Exception {
        int fe = freePort();
        try (HttpOrigin a = HttpOrigin.start(x -> x.reply(200, "a"));
             HttpOrigin b = HttpOrigin.start(x -> x.reply(200, "b"));
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
                         use-server off if { path_beg /off }
                         use-server sb if { path_beg /b } || { path_beg /off }
                         use-server %%[req.hdr(x-srv)] if { req.hdr(x-srv) -m found }
                         server sa 127.0.0.1:%d
                         server sb 127.0.0.1:%d weight 0
                         server off 127.0.0.1:%d disabled
                     """.formatted(fe, a.port(), b.port(), freePort()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).as("the algorithm").isEqualTo("a");
            assertThat(c.exchange(get("/b")).bodyText()).as("a rule, even to a server of weight 0").isEqualTo("b");
            assertThat(c.exchange(get("/off")).bodyText()).as("a server in maintenance is skipped: the next rule").isEqualTo("b");
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: t\r\nX-Srv: sb\r\n\r\n").bodyText()).as("a name built per request").isEqualTo("b");
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: t\r\nX-Srv: nosuch\r\n\r\n").bodyText()).as("no such server").isEqualTo("a");
        }
    }
}
