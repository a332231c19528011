package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rules in named defaults sections, over real sockets: they run before the proxy's own (an accept or allow there
 * ends the proxy's rules of the same set too), and stick-counter actions run in tcp-response content rules. Every
 * expectation holds for haproxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NamedDefaultsRulesIT {
    private static final String TIMEOUTS = """
                timeout connect 2s
                timeout client 10s
                timeout server 10s
            """;

    /** The backend "app" of the HTTP tests, with a defaults section of its own: %1$s the timeouts, %3$d its server's port. */
    private static final String APP = """
                 defaults plain
                     mode http
                 %1$s
                 backend app from plain
                     server s1 127.0.0.1:%3$d
                 """;

    @Test
    void httpRulesOfTheDefaultsRunBeforeTheFrontends() throws Exception {
        int fe = freePort();
        try (HttpOrigin app = HttpOrigin.ok("app");
             FulcrumProcess proxy = serve("""
                     defaults rules
                         mode http
                     %1$s
                         acl allowed path /allow
                         http-request allow if allowed
                         http-request return status 201 content-type text/plain string "def" if { path /def }
                         http-request set-header x-def 1
                         http-response set-header x-order def
                         http-after-response set-header x-after def
                     frontend fe from rules
                         bind 127.0.0.1:%2$d
                         http-request return status 403 content-type text/plain lf-string "fe %%[req.hdr(x-def)]" unless { path /pass }
                         http-response set-header x-order fe
                         default_backend app
                     """.concat(APP).formatted(TIMEOUTS, fe, app.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            Response allowed = c.exchange(get("/allow"));
            assertThat(allowed.status()).as("allow in the defaults ends the frontend's http-request rules").isEqualTo(200);
            assertThat(allowed.bodyText()).isEqualTo("app");
            assertThat(allowed.get("x-order")).as("the defaults' http-response rules run first").isEqualTo("fe");
            assertThat(allowed.get("x-after")).isEqualTo("def");
            Response def = c.exchange(get("/def"));
            assertThat(def.status()).isEqualTo(201);
            assertThat(def.bodyText()).isEqualTo("def");
            assertThat(def.get("x-after")).isEqualTo("def");
            Response fromFrontend = c.exchange(get("/x"));
            assertThat(fromFrontend.status()).isEqualTo(403);
            assertThat(fromFrontend.bodyText()).as("the header set by the defaults' rule").isEqualTo("fe 1");
            assertThat(c.exchange(get("/pass")).get("x-order")).isEqualTo("fe");
        }
    }

    /** Capture rules of the defaults fill the first slots of the frontend, before its own (%hr lists them in order). */
    @Test
    void captureRulesOfTheDefaultsTakeTheFirstSlots() throws Exception {
        int fe = freePort();
        try (HttpOrigin app = HttpOrigin.ok("app");
             FulcrumProcess proxy = serve("""
                     global
                         log stdout format raw local0
                     defaults caps
                         mode http
                         log global
                     %1$s
                         http-request capture req.hdr(x-a) len 3
                     frontend fe from caps
                         bind 127.0.0.1:%2$d
                         log-format "caps %%hr %%[capture.req.hdr(0)] %%[capture.req.hdr(1)]"
                         http-request capture req.hdr(x-b) len 4
                         default_backend app
                     """.concat(APP).formatted(TIMEOUTS, fe, app.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: h\r\nx-a: abcdef\r\nx-b: 123456\r\n\r\n").status()).isEqualTo(200);
            assertThat(TcpResponseIT.logLines(proxy, "caps ", 1)).containsExactly("caps {abc|1234} abc 1234");
        }
    }

    /** tcp-request connection and content rules of the defaults run before the frontend's, each set on its own. */
    @Test
    void tcpRulesOfTheDefaultsRunBeforeTheFrontends() throws Exception {
        int accepted = freePort();
        int connAccepted = freePort();
        int refused = freePort();
        try (Origin echoServer = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     defaults rules
                         mode tcp
                     %1$s
                         tcp-request connection reject if { dst_port %4$d }
                         tcp-request connection accept if { dst_port %3$d }
                         tcp-request content accept if { dst_port %2$d }
                     frontend fe from rules
                         bind 127.0.0.1:%2$d
                         bind 127.0.0.1:%3$d
                         bind 127.0.0.1:%4$d
                         tcp-request content reject
                         default_backend echo
                     defaults plain
                         mode tcp
                     %1$s
                     backend echo from plain
                         server s1 127.0.0.1:%5$d
                     """.formatted(TIMEOUTS, accepted, connAccepted, refused, echoServer.port()), accepted)) {
            try (Socket s = connect(accepted)) {
                assertThat(echo(s, "ping")).as("accepted by the defaults' content rule").isEqualTo("ping");
            }
            try (Socket s = connect(connAccepted)) {
                s.getOutputStream().write("ping".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                awaitClosed(s, 5000); // an accepted connection still meets the frontend's content rules
            }
            try (Socket s = connect(refused)) {
                awaitClosed(s, 5000);
            } catch (java.net.SocketException e) {
                // Reset as soon as accepted: the handshake itself may report it.
            }
        }
    }

    /** sc-inc-gpc0/1 and sc-set-gpt0 in tcp-response content rules, here those of the backend's defaults section. */
    @Test
    void stickCountersInTcpResponseRules() throws Exception {
        int tcp = freePort();
        int query = freePort();
        try (Origin echoServer = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     defaults plain
                         mode tcp
                     %1$s
                     defaults counters
                         mode tcp
                     %1$s
                         tcp-response content sc-inc-gpc0(0)
                         tcp-response content sc-set-gpt0(0) 7
                         tcp-response content sc-inc-gpc1(0) if { always_true }
                         tcp-response content sc-inc-gpc1(0) if { always_false }
                     frontend tcp from plain
                         bind 127.0.0.1:%2$d
                         default_backend counted
                     backend counted from counters
                         stick-table type ip size 10 store gpc0,gpc1,gpt0
                         tcp-request content track-sc0 src
                         server e 127.0.0.1:%4$d
                     frontend query from plain
                         mode http
                         bind 127.0.0.1:%3$d
                         http-request return status 200 content-type text/plain lf-string "gpc0=%%[src_get_gpc0(counted)] gpt0=%%[src_get_gpt0(counted)] gpc1=%%[src_get_gpc1(counted)]"
                     """.formatted(TIMEOUTS, tcp, query, echoServer.port()), tcp)) {
            for (int i = 0; i < 2; i++) {
                try (Socket s = connect(tcp)) {
                    assertThat(echo(s, "ping")).isEqualTo("ping");
                }
            }
            String counters = "";
            for (int i = 0; i < 50 && !counters.equals("gpc0=2 gpt0=7 gpc1=2"); i++) { // (the second session ends on its own time)
                Thread.sleep(100);
                try (HttpClientConn c = HttpClientConn.open(query)) {
                    counters = c.exchange(get("/")).bodyText();
                }
            }
            assertThat(counters).isEqualTo("gpc0=2 gpt0=7 gpc1=2");
        }
    }
}
