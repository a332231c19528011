package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server {@code maxconn}, {@code maxqueue} and {@code timeout queue} with real traffic: requests over the
 * limit wait in the queue and are served in turn, a full queue or a wait too long is answered 503 (SQ, sQ
 * in the log), and {@code option redispatch} moves a retry to another server.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BalanceQueueIT {

    /** An origin that holds each request {@code millis} before answering, counting how many it holds at once. */
    private static HttpOrigin slow(long millis, AtomicInteger now, AtomicInteger peak) throws Exception {
        return HttpOrigin.start(x -> {
            peak.accumulateAndGet(now.incrementAndGet(), Math::max);
            Thread.sleep(millis);
            now.decrementAndGet();
            x.reply(200, "ok");
        });
    }

    /** Waits until the origin holds {@code n} requests. */
    private static void holding(AtomicInteger now, int n) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (now.get() < n && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(now.get()).isEqualTo(n);
    }

    /** An HTTP frontend on {@code fe} whose backend be has {@code servers}, with a stats socket. */
    private static String config(Path sock, int fe, String servers) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout client 10s
                    timeout server 10s
                    timeout connect 5s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                %s
                """.formatted(sock, fe, servers.indent(4));
    }

    private static List<CompletableFuture<HttpResponse<String>>> send(HttpClient client, int fe, int n) {
        List<CompletableFuture<HttpResponse<String>>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(client.sendAsync(HttpKit.request(fe, "/r" + i).build(), HttpResponse.BodyHandlers.ofString()));
        }
        return out;
    }

    /**
     * A server going down hands the streams in its own queue (balance source queues there) to the others only with
     * {@code option redispatch}; without it they wait on until {@code timeout queue}. The state lines count them as haproxy.
     */
    @Test
    void aServerGoingDownRequeuesItsWaitersOnlyWithRedispatch() throws Exception {
        for (boolean redispatch : new boolean[] {true, false}) {
            int fe = freePort();
            Path sock = Files.createTempDirectory("fulcrum-requeue").resolve("s.sock");
            AtomicInteger now = new AtomicInteger();
            try (HttpOrigin origin = slow(1500, now, new AtomicInteger());
                 FulcrumProcess proxy = HttpKit.serve("""
                         global
                             stats socket %s level admin
                         defaults
                             mode http
                             timeout client 10s
                             timeout server 10s
                             timeout connect 5s
                             timeout queue 1s
                             %s
                         frontend fe
                             bind 127.0.0.1:%d
                             default_backend be
                         backend be
                             balance source
                             server s1 127.0.0.1:%d maxconn 1 check inter 1h
                         """.formatted(sock, redispatch ? "option redispatch" : "", fe, origin.port()), fe)) {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                List<CompletableFuture<HttpResponse<String>>> r = send(client, fe, 1);
                holding(now, 1);
                r.addAll(send(client, fe, 2));
                long end = System.nanoTime() + 5_000_000_000L;
                while (!StatsIT.rows(CliClient.send(sock, "show stat")).get("be/s1").get("qcur").equals("2")) {
                    assertThat(System.nanoTime()).as("two requests wait in s1's queue").isLessThan(end);
                    Thread.sleep(20);
                }
                CliClient.send(sock, "set server be/s1 health down");
                proxy.awaitStderr("Server be/s1 is DOWN, changed from CLI. 0 active and 0 backup servers left. 1 sessions active, "
                        + (redispatch ? "2 requeued, 0 remaining in queue." : "0 requeued, 2 remaining in queue."));
                CliClient.send(sock, "set server be/s1 health up");
                proxy.awaitStderr("Server be/s1 is UP, changed from CLI. 1 active and 0 backup servers online. 0 sessions requeued, "
                        + (redispatch ? "0" : "2") + " total in queue.");
                assertThat(r.get(0).get().statusCode()).isEqualTo(200);
                // Requeued: no other server, 503 at once; kept: 503 at timeout queue (the first holds s1 longer).
                assertThat(r.get(1).get().statusCode()).isEqualTo(503);
                assertThat(r.get(2).get().statusCode()).isEqualTo(503);
            }
        }
    }

    @Test
    void requestsOverMaxconnWaitTheirTurn() throws Exception {
        int fe = freePort();
        AtomicInteger now = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = slow(200, now, peak);
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%ST %ts %sq/%bq\"",
                     "server s1 127.0.0.1:" + origin.port() + " maxconn 1"), fe)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (CompletableFuture<HttpResponse<String>> r : send(client, fe, 4)) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            assertThat(peak.get()).as("requests the server had at once").isEqualTo(1);
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                lines.add(logs.next().trim());
            }
            assertThat(lines).allMatch(l -> l.startsWith("200 -- "));
            assertThat(lines).as("some waited behind others in the server's queue").anyMatch(l -> !l.endsWith(" 0/0"));
        }
    }

    /**
     * {@code set maxconn server} changes the limit at run time, {@code show stat}'s slim with it: raised from 1 to 2, one of
     * the requests waiting goes to the server at once. Its complaints are haproxy's.
     */
    @Test
    void setMaxconnServerRaisesTheLimitAndServesTheQueue() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-maxconn").resolve("s.sock");
        AtomicInteger now = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (HttpOrigin origin = slow(2500, now, peak);
             FulcrumProcess proxy = HttpKit.serve(config(sock, fe, """
                     server s1 127.0.0.1:%d maxconn 1
                     server s2 127.0.0.1:%1$d disabled minconn 2 maxconn 4""".formatted(origin.port())), fe)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> answers = send(client, fe, 1);
            holding(now, 1);
            answers.addAll(send(client, fe, 2));
            CliClient.await(sock, "show stat", Pattern.compile("(?m)^be,BACKEND,2,"));
            assertThat(CliClient.send(sock, "set maxconn server be/s1 2")).isEqualTo("\n");
            holding(now, 2); // before the first one is done: with a limit of 1 the server never holds two
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            assertThat(rows.get("be/s1")).containsEntry("slim", "2");
            assertThat(rows.get("be/BACKEND")).containsEntry("qcur", "1");
            for (CompletableFuture<HttpResponse<String>> r : answers) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            assertThat(peak.get()).isEqualTo(2);
            // A ramp (minconn below maxconn) moves its top only; 0 is no limit; the value is kept in 32 bits.
            assertThat(CliClient.send(sock, "set maxconn server be/s2 7;set maxconn server be/s1 0;set maxconn server be/s2 -1"))
                    .isEqualTo("\n\n\n");
            rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            assertThat(rows.get("be/s1")).containsEntry("slim", "");
            assertThat(rows.get("be/s2")).containsEntry("slim", "4294967295");
            assertThat(CliClient.send(sock, "set maxconn server be/s1;set maxconn server be/s1 x;set maxconn server be/s1 3x;"
                    + "set maxconn server be/nope 3;set maxconn server be 3"))
                    .isEqualTo("Require <maxconn>.\n\nmaxconn string empty or preceded by garbage\nTrailing garbage in maxconn string\n"
                            + "No such server.\n\nRequire 'backend/server'.\n\n");
        }
    }

    /** qmax: the longest a queue has been, per backend and server; clear counters brings it down to the length now (as haproxy). */
    @Test
    void statsShowTheLongestQueue() throws Exception {
        int fe = freePort();
        Path sock = Files.createTempDirectory("fulcrum-qmax").resolve("s.sock");
        AtomicInteger now = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (HttpOrigin origin = slow(500, now, peak);
             FulcrumProcess proxy = HttpKit.serve(config(sock, fe, "server s1 127.0.0.1:" + origin.port() + " maxconn 1"), fe)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> answers = send(client, fe, 4);
            holding(now, 1);
            for (CompletableFuture<HttpResponse<String>> r : answers) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(sock, "show stat"));
            // roundrobin skips a full server: with every server full, the requests wait in the backend's queue
            assertThat(rows.get("be/BACKEND")).containsEntry("qcur", "0").containsEntry("qmax", "3");
            assertThat(rows.get("be/s1")).containsEntry("qmax", "0");
            CliClient.send(sock, "clear counters");
            assertThat(StatsIT.rows(CliClient.send(sock, "show stat")).get("be/BACKEND")).containsEntry("qmax", "0");
        }
    }

    @Test
    void aWaitLongerThanTimeoutQueueIs503() throws Exception {
        int fe = freePort();
        AtomicInteger now = new AtomicInteger();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = slow(1500, now, new AtomicInteger());
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%ST %ts %Tw\"",
                     "timeout queue 300ms\nserver s1 127.0.0.1:" + origin.port() + " maxconn 1"), fe)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> r = send(client, fe, 1);
            holding(now, 1); // the first one holds the slot
            r.addAll(send(client, fe, 1));
            assertThat(r.get(1).get().statusCode()).isEqualTo(503);
            assertThat(r.get(0).get().statusCode()).isEqualTo(200);
            String queued = logs.next().trim();
            assertThat(queued).startsWith("503 sQ ");
            assertThat(Long.parseLong(queued.substring(7))).as("Tw").isBetween(250L, 1400L);
        }
    }

    @Test
    void aFullServerQueueIs503AtOnce() throws Exception {
        int fe = freePort();
        AtomicInteger now = new AtomicInteger();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = slow(800, now, new AtomicInteger());
             FulcrumProcess proxy = HttpKit.serve(LogIT.config(logs, "http", fe, "log-format \"%ST %ts\"",
                     "balance uri\nserver s1 127.0.0.1:" + origin.port() + " maxconn 1 maxqueue 1"), fe)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> r = send(client, fe, 1);
            holding(now, 1);
            r.addAll(send(client, fe, 1));
            Thread.sleep(300); // the second one waits in the queue
            r.addAll(send(client, fe, 1));
            assertThat(r.get(2).get().statusCode()).isEqualTo(503);
            assertThat(logs.next().trim()).isEqualTo("503 SQ");
            assertThat(r.get(0).get().statusCode()).isEqualTo(200);
            assertThat(r.get(1).get().statusCode()).isEqualTo(200);
        }
    }

    /**
     * {@code option redispatch}: the retry after a refused connection goes to the other server, without the 1 s pause
     * (read in the log's Tc, which the proxy measures: the client's clock would also count a loaded machine's delays),
     * logged with HAProxy's "+" before the retries. Passes against haproxy (-Dit.proxy=haproxy).
     */
    @Test
    void redispatchRetriesOnAnotherServer() throws Exception {
        int fe = freePort();
        int closed = FulcrumProcess.refusedPort();
        try (SyslogListener logs = SyslogListener.open();
             Origin live = Origin.start(s -> TcpProxyKit.send(s, "live"));
             FulcrumProcess proxy = TcpProxyKit.serve(LogIT.config(logs, "tcp", fe, "log-format \"%rc %Tc %s\"", """
                     balance roundrobin
                     option redispatch
                     retries 1
                     server dead 127.0.0.1:%d
                     server live 127.0.0.1:%d
                     """.formatted(closed, live.port())), fe)) {
            for (int i = 0; i < 4; i++) {
                try (Socket s = TcpProxyKit.connect(fe)) {
                    assertThat(TcpProxyKit.readToEof(s, 100)).isEqualTo("live");
                }
                // The failed server stays first in turn: each connection tries it, then goes to the other ("+1").
                String[] line = logs.next().trim().split(" ");
                assertThat(line[0]).isEqualTo("+1");
                assertThat(Long.parseLong(line[1])).as("Tc after a redispatch").isLessThan(900L);
                assertThat(line[2]).isEqualTo("live");
            }
        }
    }
}
