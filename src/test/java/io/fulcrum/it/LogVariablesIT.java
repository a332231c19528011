package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.LogIT.like;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log-format variables LogIT leaves out (%H, %lc, %trg, %trl, %sslv and %sslc in a TLS frontend) and the httplog
 * lines of requests that waited in a server's queue: served after the wait, or given up at {@code timeout queue}
 * (sQ). Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogVariablesIT {

    /** The host name, the frontend's log count, the request's date in GMT and in local time. */
    @Test
    void hostnameLogCountAndDates() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%H|%lc|%trg|%trl|%ST\"",
                     "server s1 127.0.0.1:" + origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            String host = Files.readAllLines(Path.of("/proc/sys/kernel/hostname")).get(0).trim();
            String date = "\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} ";
            String offset = DateTimeFormatter.ofPattern("xx", Locale.ROOT).format(ZonedDateTime.now(ZoneId.systemDefault()));
            for (int n = 0; n < 2; n++) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                assertThat(logs.next()).matches(java.util.regex.Pattern.quote(host + "|" + n + "|") + date + "\\+0000\\|" + date
                        + java.util.regex.Pattern.quote(offset) + "\\|200\n");
            }
        }
    }

    /** %sslv and %sslc: the version and cipher of the client's TLS connection (LogTargetsIT's httpslog: "-" without TLS). */
    @Test
    void tlsVersionAndCipher() throws Exception {
        int tls = freePort();
        Path dir = Files.createTempDirectory("fulcrum-logtls");
        Path cert = TlsKit.selfSigned(dir, "site", "site.example");
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", tls, "log-format \"%{+Q}ft %sslv %sslc %HP\"",
                     "server s1 127.0.0.1:" + origin.port())
                     .replace(tls + "\n", tls + " ssl crt " + cert + " ssl-max-ver TLSv1.2 ciphers ECDHE-RSA-AES128-GCM-SHA256\n"), tls)) {
            try (javax.net.ssl.SSLSocket s = TlsKit.connect(tls, null, new String[] {"TLSv1.2"})) {
                assertThat(TlsKit.get(s, "/v12")).startsWith("HTTP/1.1 200");
            }
            assertThat(logs.next()).isEqualTo("\"fe~\" TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 /v12\n");
        }
    }

    /**
     * Server s1 takes one request at a time (maxconn 1): the next waits in the queue. Served after the wait, its
     * line has the wait (Tw) and the backend queue's position (bq 1); given up at timeout queue, 503 and sQ.
     */
    @Test
    void httplogOfQueuedRequests() throws Exception {
        int fe = freePort();
        Semaphore holding = new Semaphore(0);
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.start(x -> {
                 if (x.target().startsWith("/hold")) {
                     holding.release();
                     Thread.sleep(Long.parseLong(x.target().substring(5)));
                 }
                 x.reply(200, "ok");
             });
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "option httplog",
                     "timeout queue 1500ms\nserver s1 127.0.0.1:" + origin.port() + " maxconn 1"), fe)) {
            // served after waiting for /hold600
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> status(fe, "/hold600"));
            assertThat(holding.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            assertThat(status(fe, "/queued")).isEqualTo(200);
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(200);
            String held = logs.next();
            String queued = logs.next();
            if (queued.contains("/hold600")) { // the lines of the two ends may come in either order
                String t = held;
                held = queued;
                queued = t;
            }
            assertThat(held).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/0/{N}/{N}/{N} 200 {N} - - ---- {N}/{N}/{N}/{N}/0 0/0 "
                    + "\"GET /hold600 HTTP/1.1\"\n"));
            assertThat(queued).matches(like("127.0.0.1:{N} [{DATE}] fe be/s1 {N}/{N}/{N}/{N}/{N} 200 {N} - - ---- {N}/{N}/{N}/{N}/0 0/1 "
                    + "\"GET /queued HTTP/1.1\"\n"));
            long tw = Long.parseLong(queued.split(" ")[4].split("/")[1]);
            assertThat(tw).as("Tw of %s", queued).isGreaterThanOrEqualTo(200);
            // given up after timeout queue while /hold3000 holds the server
            CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> status(fe, "/hold3000"));
            assertThat(holding.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            assertThat(status(fe, "/late")).isEqualTo(503);
            assertThat(logs.next()).matches(like("127.0.0.1:{N} [{DATE}] fe be/<NOSRV> {N}/{N}/-1/-1/{N} 503 {N} - - sQ-- 2/2/1/0/0 0/1 "
                    + "\"GET /late HTTP/1.1\"\n"));
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(200);
        }
    }

    /** The status of a GET of {@code path} on a connection of its own. */
    private static int status(int port, String path) {
        try (HttpClientConn c = HttpClientConn.open(port)) {
            return c.exchange(get(path)).status();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
