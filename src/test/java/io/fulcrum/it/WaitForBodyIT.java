package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * http-request wait-for-body: the rules after it see the body (req.body), the wait ends with the whole body, with
 * at-least bytes, or with a 408 at its time; "Expect: 100-continue" is answered; the body then reaches the server
 * intact. The expected answers are HAProxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WaitForBodyIT {

    private static final String RULES = """
            http-request wait-for-body time 500ms at-least 4 if { path_beg /wait }
            http-request return status 200 content-type text/plain lf-string "len=%[req.body_len] body=%[req.body]" if { path_beg /wait }
            http-request wait-for-body time 2s if { path /forward }
            http-request set-header X-Seen %[req.body]
            """;

    @Test
    void rulesSeeTheBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("fine");
             FulcrumProcess proxy = HttpKit.serve(HttpKit.config("127.0.0.1:" + fe, RULES, "", origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("POST /wait HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nab");
                Thread.sleep(100);
                HttpClientConn.Response r = c.send("cdef").read();
                assertThat(r.bodyText()).isEqualTo("len=6 body=abcdef");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("POST /wait HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc").bodyText())
                        .isEqualTo("len=3 body=abc");
                c.send("POST /wait HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n");
                Thread.sleep(100);
                assertThat(c.send("3\r\ncde\r\n").read().bodyText()).isEqualTo("len=5 body=abcde");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(HttpKit.get("/wait")).bodyText()).isEqualTo("len=0 body=");
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                long start = System.nanoTime();
                HttpClientConn.Response r = c.exchange("POST /wait HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nab");
                assertThat(r.status()).isEqualTo(408);
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(400_000_000L);
            }
        }
    }

    @Test
    void expectContinueAndForwarding() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("fine");
             FulcrumProcess proxy = HttpKit.serve(HttpKit.config("127.0.0.1:" + fe, RULES, "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("POST /forward HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 100 Continue");
            c.send("he");
            Thread.sleep(100);
            HttpClientConn.Response r = c.send("llo").read();
            assertThat(r.status()).isEqualTo(200);
            HttpOrigin.Received got = origin.requests(1).get(0);
            assertThat(got.head().get("X-Seen")).isEqualTo("hello");
            assertThat(got.bodyLength()).isEqualTo(5);
        }
    }
}
