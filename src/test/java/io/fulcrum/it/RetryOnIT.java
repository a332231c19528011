package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code retry-on} with a real client and servers that fail on purpose: the request is sent again after a status
 * code, an empty response, a junk response or a response timeout, within {@code retries}, on another server with
 * {@code option redispatch}; never when the request did not fit in a buffer, after
 * {@code http-request disable-l7-retry}, or for a failure retry-on does not list. The expectations are HAProxy
 * 2.6's (run with -Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RetryOnIT {

    /** How a server fails its first requests. */
    @FunctionalInterface
    private interface Failure {
        void fail(HttpOrigin.Exchange x) throws Exception;
    }

    /** A server that fails its first {@code failures} requests with {@code how}, then answers "ok" and the body it got. */
    private static HttpOrigin failing(int failures, Failure how) throws Exception {
        AtomicInteger seen = new AtomicInteger();
        return HttpOrigin.start(x -> {
            String body = new String(x.body.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            if (seen.incrementAndGet() <= failures) {
                how.fail(x);
            } else {
                x.reply(200, "ok " + body);
            }
        });
    }

    private static String config(SyslogListener logs, int fe, String backend, HttpOrigin... servers) {
        StringBuilder b = new StringBuilder(backend).append('\n');
        for (int i = 0; i < servers.length; i++) {
            b.append("server s").append(i + 1).append(" 127.0.0.1:").append(servers[i].port()).append('\n');
        }
        return LogIT.config(logs, "http", fe, "log-format \"%s %ST %rc %tsc\"", b.toString());
    }

    private static HttpResponse<String> get(HttpClient client, int fe, String path) throws Exception {
        return client.send(HttpKit.request(fe, path).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of {@code body} on a raw connection: its head and body in one write, or the body {@code delay} ms later. */
    private static String rawPost(int fe, String body, long delay) throws Exception {
        try (Socket s = TcpProxyKit.connect(fe)) {
            String head = "POST / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: " + body.length() + "\r\n\r\n";
            if (delay == 0) {
                TcpProxyKit.send(s, head + body);
            } else {
                TcpProxyKit.send(s, head);
                Thread.sleep(delay);
                TcpProxyKit.send(s, body);
            }
            return TcpProxyKit.readToEof(s, 100_000);
        }
    }

    /**
     * A refused connection is retried after a pause of min(timeout connect, 1 s), each attempt with its own
     * {@code timeout connect}; {@code timeout server} does not run before a connection is there: 503 SC after the
     * retries, not a 504 once timeout server has passed.
     */
    @Test
    void refusedConnectionsAreRetriedBeyondTimeoutServer() throws Exception {
        int fe = freePort();
        String backend = "timeout server 300ms\nretries 2\nserver s1 127.0.0.1:" + FulcrumProcess.refusedPort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%s %ST %rc %tsc\"", backend), fe)) {
            HttpResponse<String> r = get(HttpKit.jdkClient(), fe, "/");
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(logs.next().trim()).isEqualTo("s1 503 2 SC--");
        }
    }

    @Test
    void aStatusIsRetriedWithTheSameRequest() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = failing(2, x -> x.reply(503, "busy"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, fe, "retry-on 503 conn-failure\nretries 3", s1), fe)) {
            HttpResponse<String> r = get(HttpKit.jdkClient(), fe, "/a?b");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(s1.requests(3)).hasSize(3).allMatch(q -> q.head().raw().equals(s1.requests().get(0).head().raw()));
            assertThat(logs.next().trim()).isEqualTo("s1 200 2 ----");
        }
    }

    @Test
    void aPostWholeInItsFirstPacketIsReplayed() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = failing(1, x -> x.reply(503, "busy"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, fe, "retry-on 503", s1), fe)) {
            assertThat(rawPost(fe, "payload", 0)).endsWith("ok payload");
            assertThat(s1.requests(2)).hasSize(2).allMatch(q -> q.method().equals("POST") && q.bodyLength() == 7);
            assertThat(logs.next().trim()).isEqualTo("s1 200 1 ----");
        }
    }

    @Test
    void retriesRunOutAndTheLastResponseGoesToTheClient() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = failing(5, x -> x.reply(503, "busy"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, fe, "retry-on 503\nretries 1", s1), fe)) {
            HttpResponse<String> r = get(HttpKit.jdkClient(), fe, "/");
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).isEqualTo("busy");
            assertThat(s1.requests(2)).hasSize(2);
            assertThat(logs.next().trim()).isEqualTo("s1 503 1 ----");
        }
    }

    @Test
    void emptyJunkAndLateResponsesAreRetried() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin empty = failing(1, HttpOrigin.Exchange::close);
             HttpOrigin junk = failing(1, x -> {
                 x.send("this is no HTTP response\r\n\r\n");
                 x.close();
             });
             HttpOrigin late = failing(1, x -> Thread.sleep(1500));
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe,
                     "log-format \"%b/%s %ST %rc %tsc\"\nuse_backend %[path,field(2,/)]", """
                     retry-on empty-response junk-response response-timeout
                     timeout server 500ms
                     server s1 127.0.0.1:%d
                     backend junk
                     retry-on junk-response
                     server s1 127.0.0.1:%d
                     backend late
                     retry-on response-timeout
                     timeout server 500ms
                     server s1 127.0.0.1:%d
                     """.formatted(empty.port(), junk.port(), late.port())), fe)) {
            HttpClient client = HttpKit.jdkClient();
            for (String path : new String[] {"/be/", "/junk/", "/late/"}) {
                HttpResponse<String> r = client.send(HttpKit.request(fe, path).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(path).isEqualTo(200);
                assertThat(logs.next().trim()).isEqualTo(path.substring(1, path.length() - 1) + "/s1 200 1 ----");
            }
        }
    }

    /**
     * A kept-alive server connection the server closes on the next request, without an answer: without
     * {@code retry-on empty-response} (the default is conn-failure only) the request is not sent again, the client's
     * connection closes unanswered and unlogged (the client retries, as in any keep-alive race); with it, the request
     * goes again on a new connection, one retry logged.
     */
    @Test
    void aKeptConnectionClosedWithoutAnAnswerIsRetriedOnlyOnEmptyResponse() throws Exception {
        for (String retryOn : new String[] {"", "retry-on conn-failure empty-response"}) {
            int fe = freePort();
            try (SyslogListener logs = SyslogListener.open();
                 HttpOrigin once = HttpOrigin.start(x -> {
                     if (x.index == 1) {
                         x.reply(200, "ok " + x.connection);
                     } else {
                         x.close();
                     }
                 });
                 FulcrumProcess proxy = HttpKit.serve(config(logs, fe, retryOn, once), fe);
                 HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(HttpKit.get("/a")).bodyText()).isEqualTo("ok 1");
                assertThat(logs.next().trim()).isEqualTo("s1 200 0 ----");
                c.send(HttpKit.get("/b"));
                if (retryOn.isEmpty()) {
                    c.awaitClosed(5000); // without an answer
                    logs.assertNone(500);
                } else {
                    assertThat(c.read().bodyText()).isEqualTo("ok 2");
                    assertThat(logs.next().trim()).isEqualTo("s1 200 1 ----");
                }
                assertThat(once.requests(retryOn.isEmpty() ? 2 : 3)).extracting(HttpOrigin.Received::connection)
                        .isEqualTo(retryOn.isEmpty() ? List.of(1, 1) : List.of(1, 1, 2));
            }
        }
    }

    @Test
    void redispatchMovesTheRetryToAnotherServer() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin bad = failing(100, x -> x.reply(500, "broken"));
             HttpOrigin good = failing(0, null);
             FulcrumProcess proxy = HttpKit.serve(config(logs, fe, "balance first\nretry-on 500\nretries 2\noption redispatch 1",
                     bad, good), fe)) {
            HttpResponse<String> r = get(HttpKit.jdkClient(), fe, "/");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(bad.requests(1)).hasSize(1);
            assertThat(good.requests(1)).hasSize(1);
            assertThat(logs.next().trim()).isEqualTo("s2 200 +1 ----");
        }
    }

    @Test
    void noRetryWhenTheRequestDidNotFitOrRulesSayNo() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin s1 = failing(100, x -> x.reply(503, "busy"));
             FulcrumProcess proxy = HttpKit.serve(config(logs, fe, """
                     retry-on 503
                     http-request disable-l7-retry if { path /no }
                     """, s1), fe)) {
            HttpClient client = HttpKit.jdkClient();
            assertThat(rawPost(fe, "x".repeat(20_000), 0)).startsWith("HTTP/1.1 503");
            assertThat(logs.next().trim()).as("larger than a buffer").isEqualTo("s1 503 0 ----");
            assertThat(rawPost(fe, "late body", 500)).startsWith("HTTP/1.1 503");
            assertThat(logs.next().trim()).as("not whole when first sent").isEqualTo("s1 503 0 ----");
            assertThat(get(client, fe, "/no").statusCode()).isEqualTo(503);
            assertThat(logs.next().trim()).isEqualTo("s1 503 0 ----");
            assertThat(get(client, fe, "/yes").statusCode()).isEqualTo(503);
            assertThat(logs.next().trim()).as("retries 3 by default").isEqualTo("s1 503 3 ----");
            assertThat(s1.requests(7)).hasSize(7);
        }
    }

    @Test
    void withoutConnFailureARefusedConnectionIsNotRetried() throws Exception {
        int fe = freePort();
        int dead = FulcrumProcess.refusedPort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%s %ST %rc %tsc\"",
                     "retry-on 503\nretries 3\nserver s1 127.0.0.1:" + dead), fe)) {
            HttpResponse<String> r = HttpKit.jdkClient().send(HttpKit.request(fe, "/").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(logs.next().trim()).isEqualTo("s1 503 0 SC--");
        }
    }
}
