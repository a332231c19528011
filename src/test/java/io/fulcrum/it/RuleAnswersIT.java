package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What tools/rules-diff.py found answered or logged unlike haproxy 2.6 (rules, their answers and the log), each as
 * haproxy does it; passes with -Dit.proxy=haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuleAnswersIT {

    @TempDir
    Path dir;

    /** A proxy whose frontend has {@code frontend}'s lines, logging to {@code logs}, before {@code origin}; a client connected to it. */
    private record Rig(SyslogListener logs, HttpOrigin origin, FulcrumProcess proxy, HttpClientConn client) implements AutoCloseable {
        static Rig start(HttpOrigin origin, String frontend) throws Exception {
            int fe = freePort();
            SyslogListener logs = SyslogListener.open();
            FulcrumProcess proxy;
            try {
                proxy = HttpKit.serve(LogIT.config(logs, "http", fe, frontend, "server s1 127.0.0.1:" + origin.port()), fe);
            } catch (Exception e) {
                try (logs; origin) {
                    throw e;
                }
            }
            try {
                return new Rig(logs, origin, proxy, HttpClientConn.open(fe));
            } catch (Exception e) {
                try (logs; origin; proxy) {
                    throw e;
                }
            }
        }

        @Override
        public void close() throws Exception {
            try (logs; origin; proxy; client) {
                // (closed in reverse order: the client first)
            }
        }
    }

    /** http-request auth answers the request itself: "LR", as the stats page's own authentication. */
    @Test
    void authIsAnAnswerOfTheProxy() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     log-format "%ST %tsc"
                     http-request auth realm Inside""")) {
            HttpClientConn c = rig.client();
            HttpClientConn.Response r = c.exchange(get("/"));
            assertThat(r.text()).startsWith("HTTP/1.1 401 Unauthorized\r\n").contains("www-authenticate: Basic realm=\"Inside\"\r\n");
            assertThat(rig.logs().next().trim()).isEqualTo("401 LR--");
        }
    }

    /** The status an http-after-response rule sets on the proxy's own answer is the one logged. */
    @Test
    void afterResponseSetStatusIsLogged() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     log-format "%ST %tsc"
                     http-request deny
                     http-after-response set-status 418""")) {
            HttpClientConn c = rig.client();
            assertThat(c.exchange(get("/")).text()).startsWith("HTTP/1.1 418 I'm a teapot\r\n");
            assertThat(rig.logs().next().trim()).isEqualTo("418 PR--");
        }
    }

    /** option http-restrict-req-hdr-names reject refuses as a deny rule does: 403, "PR". */
    @Test
    void restrictedHeaderNamesAreARefusal() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     log-format "%ST %tsc"
                     option http-restrict-req-hdr-names reject""")) {
            HttpClientConn c = rig.client();
            assertThat(c.exchange("GET / HTTP/1.1\r\nHost: x\r\nX_A: 1\r\n\r\n").status()).isEqualTo(403);
            assertThat(rig.logs().next().trim()).isEqualTo("403 PR--");
        }
    }

    /** A service answers in place of a server: the log names its applet (<PROMEX>), "LR" as the proxy's own answer. */
    @Test
    void servicesAreNamedInTheLog() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     log-format "%s %ST %tsc"
                     http-request use-service prometheus-exporter""")) {
            HttpClientConn c = rig.client();
            assertThat(c.exchange(get("/metrics?scope=global")).status()).isEqualTo(200);
            assertThat(rig.logs().next().trim()).isEqualTo("<PROMEX> 200 LR--");
        }
    }

    /** A reply's hdr Content-Length (or Transfer-Encoding, Content-Type) is ignored: the reply frames its body itself. */
    @Test
    void replyFramingHeadersAreIgnored() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     http-request return status 200 content-type text/plain string hi hdr Content-Length 9 hdr Content-Type x/y""")) {
            HttpClientConn c = rig.client();
            assertThat(c.exchange(get("/")).text())
                    .isEqualTo("HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: text/plain\r\n\r\nhi");
        }
    }

    /** "HAProxy will not forward it nor log it": a monitor-uri request leaves no log line. */
    @Test
    void monitorRequestsAreNotLogged() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("fine"), """
                     log-format "%HU %ST"
                     monitor-uri /health""")) {
            HttpClientConn c = rig.client();
            assertThat(c.exchange(get("/health")).text()).startsWith("HTTP/1.1 200 OK\r\n");
            assertThat(c.exchange(get("/other")).bodyText()).isEqualTo("fine");
            assertThat(rig.logs().next().trim()).isEqualTo("/other 200");
        }
    }

    /** unique-id-header goes to the server in lower case, as every field the proxy adds. */
    @Test
    void uniqueIdHeaderIsWrittenInLowerCase() throws Exception {
        BlockingQueue<String> heads = new ArrayBlockingQueue<>(1);
        try (Rig rig = Rig.start(HttpOrigin.start(x -> {
                     heads.add(x.head.raw());
                     x.reply(200, "ok");
                 }), """
                     unique-id-format "id-%[path]"
                     unique-id-header X-Unique-ID""")) {
            HttpClientConn c = rig.client();
            c.exchange(get("/p"));
            assertThat(heads.poll(10, TimeUnit.SECONDS)).contains("\r\nx-unique-id: id-/p\r\n");
        }
    }

    /** An empty %HQ still counts as a field: the separator after it is written, as in haproxy (two spaces). */
    @Test
    void anEmptyFieldKeepsItsSeparator() throws Exception {
        try (Rig rig = Rig.start(HttpOrigin.ok("ok"), """
                     log-format "%HP %HQ %ST %hr %ST\"""")) {
            HttpClientConn c = rig.client();
            c.exchange(get("/p"));
            assertThat(rig.logs().next().trim()).isEqualTo("/p  200 200");
        }
    }

    /**
     * An HTTP/1.0 errorfile rewritten by http-after-response rules goes out without "connection: close" (an HTTP/1.0
     * response says it by its version), then the connection closes.
     */
    @Test
    void anHttp10ErrorfileClosesWithoutSayingSo() throws Exception {
        Path page = dir.resolve("503.http");
        Files.writeString(page, "HTTP/1.0 503 Down\r\nContent-Type: text/plain\r\n\r\ndown\n");
        try (Rig rig = Rig.start(HttpOrigin.ok("never"), """
                     errorfile 503 %s
                     http-request deny deny_status 503
                     http-after-response set-header X-After 1""".formatted(page))) {
            HttpClientConn c = rig.client();
            c.send(get("/"));
            c.socket.setSoTimeout(10_000);
            assertThat(new String(c.in().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.0 503 Down\r\ncontent-type: text/plain\r\nx-after: 1\r\n\r\ndown\n");
        }
    }
}
