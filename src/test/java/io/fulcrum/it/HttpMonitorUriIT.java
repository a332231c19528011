package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.HttpErrorsIT.E200;
import static io.fulcrum.it.HttpErrorsIT.withClose;
import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code monitor-uri}: the proxy answers requests for that URI itself, with HAProxy's 200 page (or the proxy's
 * {@code errorfile 200}) through HTTP/1 output, and forwards nothing of them. A URI starting with '/' is compared
 * with the request's path (an absolute-form target matches by its path), exactly: the query string counts.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpMonitorUriIT {

    @TempDir
    Path dir;

    /** Each request on one connection: the monitor's page for those it intercepts, the origin's echo of the target for the others. */
    private static void expect(String monitorUri, String... requestsAndAnswers) throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "origin " + x.target()));
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "monitor-uri " + monitorUri, "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            for (int i = 0; i < requestsAndAnswers.length; i += 2) {
                String target = requestsAndAnswers[i];
                HttpClientConn.Response r = c.exchange("GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n");
                String expected = requestsAndAnswers[i + 1];
                assertThat(expected.equals("monitor") ? r.text() : r.bodyText()).as(target)
                        .isEqualTo(expected.equals("monitor") ? E200 : expected);
            }
        }
    }

    @Test
    void pathMatchesExactly() throws Exception {
        expect("/health",
                "/health", "monitor",
                "/health?full=1", "origin /health?full=1",
                "/Health", "origin /Health",
                "/health/", "origin /health/",
                "http://test/health", "monitor",
                "http://test/health?x", "origin http://test/health?x",
                "/health", "monitor");
    }

    @Test
    void otherUrisMatchTheWholeTarget() throws Exception {
        expect("http://test/health",
                "http://test/health", "monitor",
                "/health", "origin /health");
    }

    /** HTTP/1.0 without keep-alive: the page says so and the connection closes; HEAD gets no body. */
    @Test
    void connectionHandlingAsForAnyAnswer() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "monitor-uri /health", "", origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("GET /health HTTP/1.0\r\n\r\n");
                assertThat(c.read().text()).isEqualTo(withClose(E200));
                c.awaitClosed(3000);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("HEAD /health HTTP/1.1\r\nHost: test\r\n\r\n");
                assertThat(c.read("HEAD").text()).isEqualTo(E200.substring(0, E200.indexOf("\r\n\r\n") + 4));
            }
            assertThat(origin.accepted()).isZero();
        }
    }

    /**
     * A request with a body: when the whole body came with the head, the connection stays (the body is dropped and
     * the next request goes on); otherwise the answer closes it.
     */
    @Test
    void requestWithABody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> x.reply(200, "origin " + x.target()));
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "monitor-uri /health", "", origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("POST /health HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc" + get("/next"));
                assertThat(c.read().text()).isEqualTo(E200);
                assertThat(c.read().bodyText()).isEqualTo("origin /next");
                c.send("POST /health HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
                assertThat(c.read().text()).isEqualTo(E200);
            }
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("POST /health HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc");
                assertThat(c.read().text()).isEqualTo(withClose(E200));
            }
            assertThat(origin.requests(1)).extracting(HttpOrigin.Received::target).containsExactly("/next");
        }
    }

    @Test
    void errorfile200IsThePage() throws Exception {
        Files.writeString(dir.resolve("200.http"), "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nup\n");
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "monitor-uri /health\nerrorfile 200 " + dir.resolve("200.http"),
                     "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/health")).text())
                    .isEqualTo("HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 3\r\nconnection: keep-alive\r\n\r\nup\n");
        }
    }

    /** monitor fail: the monitor request is answered 503 while a condition holds, 200 otherwise. */
    @Test
    void monitorFailAnswers503WhileItsConditionHolds() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("never");
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, """
                     monitor-uri /health
                     acl down req.hdr(x-down) -m found
                     monitor fail if down
                     monitor fail unless { nbsrv(be) ge 1 }
                     """, "", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/health")).text()).isEqualTo(E200);
            assertThat(c.exchange("GET /health HTTP/1.1\r\nHost: test\r\nX-Down: 1\r\n\r\n").text()).isEqualTo(HttpErrorsIT.E503);
            assertThat(origin.accepted()).isZero();
        }
    }
}
