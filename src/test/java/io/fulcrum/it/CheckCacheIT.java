package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code option checkcache}: a cacheable response carrying a cookie is refused (the client never sees the cookie nor the
 * body), with an alert on stderr and in the backend's log and "PH" in the transaction's log line; responses that are
 * not cacheable pass. As in HAProxy, the server's response is judged, whatever the http-response rules change. Passes against haproxy too
 * ({@code -Dit.proxy=haproxy}), except for the status: HAProxy 2.6.12 answers the error page of the server's own status
 * (its 200 "Service ready" page here) where its documentation says 502, which Fulcrum sends (docs/differences.md).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckCacheIT {

    @Test
    void cacheableCookiesAreBlocked() throws Exception {
        int fe = freePort();
        String backend = """
                option checkcache
                http-response del-header Set-Cookie if { path /stripped }
                server s1 127.0.0.1:%d
                """;
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "secret", "Set-Cookie: sid=1",
                     x.target().equals("/private") ? "Cache-Control: private, max-age=60" : "Cache-Control: max-age=60"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "log-format \"%ts %HM %HU\"", backend.formatted(origin.port())), fe)) {
            // The server's response is judged, before the response rules: removing its cookie there does not save it.
            for (String blocked : new String[] {"GET /cacheable", "GET /stripped"}) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    HttpClientConn.Response r = c.exchange(blocked + " HTTP/1.1\r\nHost: a\r\n\r\n");
                    assertThat(r.get("Set-Cookie")).as(blocked).isNull();
                    assertThat(r.bodyText()).as(blocked).doesNotContain("secret");
                    if (!TcpProxyKit.haproxy()) {
                        assertThat(r.status()).as(blocked).isEqualTo(502);
                    }
                }
                proxy.awaitStderr("Blocking cacheable cookie in response from instance be, server s1.");
                assertThat(logs.next()).isEqualTo("Blocking cacheable cookie in response from instance be, server s1.\n");
                assertThat(logs.next()).isEqualTo("PH " + blocked + "\n");
            }
            for (String ok : new String[] {"POST /cacheable", "GET /private"}) {
                try (HttpClientConn c = HttpClientConn.open(fe)) {
                    HttpClientConn.Response r = c.exchange(ok + " HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n");
                    assertThat(r.status()).as(ok).isEqualTo(200);
                    assertThat(r.bodyText()).as(ok).isEqualTo("secret");
                    assertThat(r.get("Set-Cookie")).as(ok).isEqualTo("sid=1");
                }
                assertThat(logs.next()).isEqualTo("-- " + ok + "\n");
            }
        }
    }
}
