package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * http-response wait-for-body (the rules after it see res.body, res.body_len, res.body_size; 504 at its time) and
 * tcp-response content rules in mode http (they run once the server connection is established: a reject closes the
 * client connection without an answer, a close makes a 502). The answers and the log lines' termination states are
 * HAProxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResponseWaitIT {

    /**
     * Answers /split (and /chunked) in two parts 300 ms apart, /stall with half its body, /no-chunk with a chunked
     * body of no chunk, anything else at once.
     */
    private static HttpOrigin origin() throws Exception {
        return HttpOrigin.start(x -> {
            x.readBody();
            switch (x.target()) {
                case "/split" -> {
                    x.send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello");
                    Thread.sleep(300);
                    x.send("world");
                }
                case "/chunked" -> {
                    x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
                    Thread.sleep(300);
                    x.send("5\r\nworld\r\n0\r\n\r\n");
                }
                case "/no-chunk" -> x.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
                case "/stall" -> {
                    x.send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello");
                    Thread.sleep(3000);
                    x.close();
                }
                default -> x.reply(200, "helloworld");
            }
        });
    }

    private static String config(int fe, String rules, int be) {
        return """
                global
                    log stdout format raw local0
                defaults
                    mode http
                    log global
                    log-format "%%b %%ST %%ts"
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                %s
                    server s1 127.0.0.1:%d
                """.formatted(fe, rules.indent(4), be);
    }

    private static final String WAIT = """
            http-response wait-for-body time 1s at-least 3 if { status 201 }
            http-response wait-for-body time 1s if !{ status 201 }
            http-response set-header x-body %[res.body]
            http-response set-header x-len %[res.body_len]
            http-response set-header x-size %[res.body_size]
            """;

    @Test
    void rulesSeeTheResponseBody() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = HttpKit.serve(config(fe, WAIT, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange(HttpKit.get("/split"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.head().get("x-body")).isEqualTo("helloworld");
            assertThat(r.head().get("x-len")).isEqualTo("10");
            assertThat(r.head().get("x-size")).isEqualTo("10");
            assertThat(r.bodyText()).isEqualTo("helloworld");
            r = c.exchange(HttpKit.get("/chunked"));
            assertThat(r.head().get("x-body")).isEqualTo("helloworld");
            assertThat(r.head().get("x-len")).isEqualTo("10");
            assertThat(r.bodyText()).isEqualTo("helloworld");
            r = c.exchange(HttpKit.get("/"));
            assertThat(r.head().get("x-body")).isEqualTo("helloworld");
            assertThat(r.bodyText()).isEqualTo("helloworld");
            // an empty body that came chunked is a body all the same (tools/sample-diff.py)
            r = c.exchange(HttpKit.get("/no-chunk"));
            assertThat(r.head().get("x-len")).isEqualTo("0");
            assertThat(r.head().get("x-size")).isEqualTo("0");
            assertThat(r.bodyText()).isEmpty();
        }
    }

    @Test
    void atLeast() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.readBody();
                 x.send("HTTP/1.1 201 Created\r\nContent-Length: 10\r\n\r\nhello");
                 Thread.sleep(300);
                 x.send("world");
             });
             FulcrumProcess proxy = HttpKit.serve(config(fe, WAIT, origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange(HttpKit.get("/"));
            assertThat(r.head().get("x-body")).isEqualTo("hello");
            assertThat(r.head().get("x-len")).isEqualTo("5");
            assertThat(r.head().get("x-size")).isEqualTo("10");
            assertThat(r.bodyText()).isEqualTo("helloworld");
        }
    }

    @Test
    void gatewayTimeoutAtTheWaitsEnd() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = HttpKit.serve(config(fe, WAIT.replace("time 1s if !", "time 500ms if !"), origin.port()), fe)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                long start = System.nanoTime();
                HttpClientConn.Response r = c.exchange(HttpKit.get("/stall"));
                assertThat(r.status()).isEqualTo(504);
                assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(400_000_000L).isLessThan(5_000_000_000L); // well before timeout server (10 s)
            }
            assertThat(TcpResponseIT.logLines(proxy, "be ", 1)).containsExactly("be 504 sR");
        }
    }

    @Test
    void tcpResponseRulesInHttpMode() throws Exception {
        int fe = freePort();
        int fe2 = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess reject = HttpKit.serve(config(fe, "tcp-response content reject", origin.port()), fe);
             FulcrumProcess close = HttpKit.serve(config(fe2, "tcp-response content close", origin.port()), fe2)) {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(HttpKit.get("/"));
                c.awaitClosed(5000);
            }
            try (HttpClientConn c = HttpClientConn.open(fe2)) {
                assertThat(c.exchange(HttpKit.get("/")).status()).isEqualTo(502);
            }
            List<String> rejected = TcpResponseIT.logLines(reject, "be ", 1);
            assertThat(rejected).hasSize(1);
            assertThat(rejected.get(0)).endsWith(" PD");
            assertThat(TcpResponseIT.logLines(close, "be ", 1)).containsExactly("be 502 SH");
        }
    }

    /** silent-drop, in each rule set that has it: the client is told nothing, the log says PR. */
    @Test
    void silentDrop() throws Exception {
        int[] fe = {freePort(), freePort(), freePort()};
        String[] rules = {"http-request silent-drop", "http-response silent-drop", "tcp-response content silent-drop"};
        try (HttpOrigin origin = origin();
             FulcrumProcess p0 = HttpKit.serve(config(fe[0], rules[0], origin.port()), fe[0]);
             FulcrumProcess p1 = HttpKit.serve(config(fe[1], rules[1], origin.port()), fe[1]);
             FulcrumProcess p2 = HttpKit.serve(config(fe[2], rules[2], origin.port()), fe[2])) {
            for (int port : fe) {
                try (java.net.Socket s = TcpProxyKit.connect(port)) {
                    TcpProxyKit.send(s, HttpKit.get("/"));
                    TcpProxyKit.assertSilent(s, 700, "a silently dropped connection");
                }
            }
            assertThat(TcpResponseIT.logLines(p0, "be ", 1)).containsExactly("be -1 PR");
            assertThat(TcpResponseIT.logLines(p1, "be ", 1)).containsExactly("be 200 PR");
            assertThat(TcpResponseIT.logLines(p2, "be ", 1)).containsExactly("be -1 PR");
        }
    }
}
