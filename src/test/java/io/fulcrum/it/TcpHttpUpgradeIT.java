package io.fulcrum.it;

import io.fulcrum.it.HttpOrigin.Received;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code mode tcp} frontend whose stream goes to a {@code mode http} backend, or meets {@code tcp-request content
 * switch-mode http}: the connection becomes HTTP/1 in place, as in HAProxy 2.6, from the bytes already read. Its
 * requests are parsed, each is a transaction with the HTTP rules and its own log line in the frontend's format.
 * Run with -Dit.proxy=haproxy for HAProxy's behaviour.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpHttpUpgradeIT {

    private static String config(SyslogListener logs, int fe, String frontend, String backends) {
        return """
                global
                    log 127.0.0.1:%d format raw local0
                defaults
                    log global
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    mode tcp
                    bind 127.0.0.1:%d
                %s
                %s
                """.formatted(logs.port(), fe, frontend.indent(4), backends);
    }

    /**
     * The backend's HTTP processing applies (its http-request and http-response rules, option forwardfor), on each
     * request of a kept-alive connection; each is logged in the TCP frontend's tcplog format. A request that does not
     * parse is answered 400 and logged as HAProxy does, without the backend.
     */
    @Test
    void httpBackendUpgradesTheConnection() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "at " + x.target()));
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, fe, "option tcplog\ndefault_backend be", """
                     backend be
                         mode http
                         option forwardfor
                         http-request set-header X-Up yes
                         http-response set-header X-Resp r
                         server s1 127.0.0.1:%d
                     """.formatted(origin.port())), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                for (String path : new String[] {"/one", "/two"}) {
                    c.send(get(path));
                    HttpClientConn.Response r = c.read();
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.bodyText()).isEqualTo("at " + path);
                    assertThat(r.get("x-resp")).isEqualTo("r");
                    Received got = origin.nextRequest(5000);
                    assertThat(got.target()).isEqualTo(path);
                    assertThat(got.head().all("x-up")).containsExactly("yes");
                    assertThat(got.head().all("x-forwarded-for")).containsExactly("127.0.0.1");
                    assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N} {N} -- 1/1/0/0/0 0/0\n"));
                }
                assertThat(origin.accepted()).isEqualTo(1);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET / HTTP/1.1\r\nHost: test\r\nBad Field\r\n\r\n");
                assertThat(c.read().status()).isEqualTo(400);
                c.awaitClosed(5000);
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe fe/<NOSRV> -1/-1/{N} 0 PR 1/1/0/0/0 0/0\n"));
            assertThat(origin.requests()).hasSize(2);
        }
    }

    /**
     * Upgraded by its backend, the frontend runs its own HTTP rules too (HAProxy warns that they are ignored, and runs
     * them), but not its HTTP options: HAProxy turns them off in a TCP frontend.
     */
    @Test
    void frontendRulesRunItsHttpOptionsDoNot() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, fe, """
                     option forwardfor
                     http-request set-header X-Fe yes
                     default_backend be""", """
                     backend be
                         mode http
                         server s1 127.0.0.1:%d
                     """.formatted(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send(get("/"));
            assertThat(c.read().status()).isEqualTo(200);
            Received got = origin.nextRequest(5000);
            assertThat(got.head().all("x-fe")).containsExactly("yes");
            assertThat(got.head().all("x-forwarded-for")).isEmpty();
        }
    }

    /**
     * {@code switch-mode http}: the frontend's HTTP options apply, and its switching rules run on each request with the
     * HTTP fetches; a client that does not speak HTTP stays a TCP session, to the TCP backend.
     */
    @Test
    void switchModeMakesTheFrontendHttp() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin one = HttpOrigin.start(x -> x.reply(200, "one " + x.target()));
             HttpOrigin two = HttpOrigin.start(x -> x.reply(200, "two " + x.target()));
             Origin echo = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, fe, """
                     option tcplog
                     option forwardfor
                     tcp-request inspect-delay 5s
                     tcp-request content switch-mode http if HTTP
                     tcp-request content reject if { req.len gt 100 }
                     use_backend two if { path_beg /two }
                     use_backend one if { path_beg /one }
                     default_backend raw""", """
                     backend one
                         mode http
                         server s1 127.0.0.1:%d
                     backend two
                         mode http
                         server s1 127.0.0.1:%d
                     backend raw
                         mode tcp
                         server s1 127.0.0.1:%d
                     """.formatted(one.port(), two.port(), echo.port())), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(get("/one"));
                assertThat(c.read().bodyText()).isEqualTo("one /one");
                // (the content rules run again on each request: switch-mode stops them before the reject)
                c.send("GET /two HTTP/1.1\r\nHost: test\r\nX-Long: " + "x".repeat(200) + "\r\n\r\n");
                assertThat(c.read().bodyText()).isEqualTo("two /two");
                c.send(get("/one/again"));
                assertThat(c.read().bodyText()).isEqualTo("one /one/again");
            }
            assertThat(one.nextRequest(5000).head().all("x-forwarded-for")).containsExactly("127.0.0.1");
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe one/s1 {N}/{N}/{N} {N} -- 1/1/0/0/0 0/0\n"));
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe two/s1 {N}/{N}/{N} {N} -- 1/1/0/0/0 0/0\n"));
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe one/s1 {N}/{N}/{N} {N} -- 1/1/0/0/0 0/0\n"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "not http\n")).isEqualTo("not http\n");
            }
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe raw/s1 {N}/{N}/{N} 9 -- 1/1/0/0/0 0/0\n"));
        }
    }
}
