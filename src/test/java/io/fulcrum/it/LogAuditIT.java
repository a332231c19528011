package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a differential audit of log lines and counters against haproxy 2.6 found (the same transactions through
 * both): captures of a response that never came, the address of a server that refused the connection, the idle
 * time of an empty connection, queue positions, and the counters of invalid responses, aborted requests, queue
 * timeouts, retries and the stats socket's own connection. Passes with -Dit.proxy=haproxy.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogAuditIT {

    private static final String HOLD = "/hold";

    /**
     * An origin that answers 200 to each request, /hold<ms> ones after that many ms; garbage to /garbage; 5000 bytes
     * to /big; a 103 Early Hints before the 200 to /early, a 100 Continue to /continue.
     */
    private static HttpOrigin origin() throws Exception {
        return HttpOrigin.start(x -> {
            if (x.target().equals("/early")) {
                x.send("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n");
            }
            if (x.target().equals("/continue")) {
                x.send("HTTP/1.1 100 Continue\r\n\r\n");
            }
            if (x.target().equals("/garbage")) {
                x.send("garbage garbage\r\n\r\n").close();
                return;
            }
            if (x.target().equals("/big")) {
                x.reply(200, "x".repeat(5000));
                return;
            }
            if (x.target().startsWith(HOLD)) {
                Thread.sleep(Long.parseLong(x.target().substring(HOLD.length())));
            }
            x.reply(200, "ok", "X-R: r1");
        });
    }

    /** LogIT's configuration with a stats socket, {@code format}, two captures, a deny rule and a queue timeout. */
    private static String config(SyslogListener logs, Path sock, int fe, String format, String backend) {
        String frontend = "log-format \"" + format + "\"\ncapture request header Host len 10\ncapture response header X-R len 10\n"
                + "http-request deny if { path /deny }";
        return LogIT.config(logs, "http", fe, frontend, backend + "\ntimeout queue 1s")
                .replaceFirst("global\n", "global\n    stats socket " + sock + " level admin\n");
    }

    private static Path socket() throws Exception {
        return Files.createTempDirectory("fulcrum-audit").resolve("s.sock");
    }

    /** What a test does with the proxy it was given: its syslog, its port, its stats socket. */
    @FunctionalInterface
    private interface Run {
        void run(SyslogListener logs, int fe, Path sock) throws Exception;
    }

    /** Runs {@code test} on a proxy logging in {@code format} whose backend has the lines {@code backend} (ORIGIN: origin()'s address). */
    private static void withProxy(String format, String backend, Run test) throws Exception {
        int fe = freePort();
        Path sock = socket();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = origin();
             FulcrumProcess proxy = HttpKit.serve(config(logs, sock, fe, format, backend.replace("ORIGIN", "127.0.0.1:" + origin.port())), fe)) {
            test.run(logs, fe, sock);
        }
    }

    private static Map<String, Map<String, String>> stats(Path sock) throws Exception {
        return StatsIT.rows(CliClient.send(sock, "show stat"));
    }

    /** Waits until s1 serves a request (its one slot taken), so that the next one queues. */
    private static void awaitBusy(Path sock) throws Exception {
        for (int i = 0; i < 200 && !stats(sock).get("be/s1").get("scur").equals("1"); i++) {
            Thread.sleep(5);
        }
    }

    /** HAProxy's transaction holds its response captures from the parsed request on: "{}" and "-" when no response came. */
    @Test
    void responseCapturesOfAResponseThatNeverCame() throws Exception {
        withProxy("%ST %tsc %hr %hrl %hs %hsl", "server s1 ORIGIN", (logs, fe, sock) -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                assertThat(logs.next()).isEqualTo("200 ---- {test} test {r1} r1\n");
                assertThat(c.exchange(get("/deny")).status()).isEqualTo(403);
                assertThat(logs.next()).isEqualTo("403 PR-- {test} test {} -\n");
                try (HttpClientConn c2 = HttpClientConn.open(fe)) {
                    assertThat(c2.exchange(get("/garbage")).status()).isEqualTo(502);
                }
                assertThat(logs.next()).isEqualTo("502 PH-- {test} test {} -\n");
            }
        });
    }

    /** %si/%sp name the server whose connection failed, %bi the address the socket had; an empty connection has no idle time. */
    @Test
    void refusedServerAddressAndEmptyConnectionTimers() throws Exception {
        int dead = FulcrumProcess.refusedPort();
        withProxy("%tsc %si:%sp %bi %Ti %TR %Tq", "retries 0\nserver s1 127.0.0.1:" + dead, (logs, fe, sock) -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(503);
            }
            assertThat(logs.next()).matches(LogIT.like("SC-- 127.0.0.1:" + dead + " 127.0.0.1 {N} {N} {N}\n"));
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(200);
            }
            assertThat(logs.next()).isEqualTo("CR-- -:- - 0 -1 -1\n");
        });
    }

    /**
     * Queue positions count from 1, also for a request whose queue timeout expired (sQ); that timeout is a connection
     * error of the backend (econ); lbtot counts the algorithm's choices only, not the slots a queue gave.
     */
    @Test
    void queuePositionsAndQueueCounters() throws Exception {
        withProxy("%HU %ST %tsc %sq/%bq", "server s1 ORIGIN maxconn 1", (logs, fe, sock) -> {
            try (HttpClientConn holder = HttpClientConn.open(fe);
                 HttpClientConn waiter = HttpClientConn.open(fe)) {
                holder.send(get(HOLD + "2000"));
                awaitBusy(sock);
                assertThat(waiter.exchange(get("/late")).status()).isEqualTo(503);
                assertThat(logs.next()).isEqualTo("/late 503 sQ-- 0/1\n");
                assertThat(holder.read().status()).isEqualTo(200);
                assertThat(logs.next()).isEqualTo(HOLD + "2000 200 ---- 0/0\n");

                holder.send(get(HOLD + "400"));
                awaitBusy(sock);
                try (HttpClientConn next = HttpClientConn.open(fe)) {
                    assertThat(next.exchange(get("/next")).status()).isEqualTo(200); // served once the first ends
                }
                assertThat(holder.read().status()).isEqualTo(200);
                assertThat(logs.next()).isEqualTo(HOLD + "400 200 ---- 0/0\n");
                assertThat(logs.next()).isEqualTo("/next 200 ---- 0/1\n");

                Map<String, Map<String, String>> rows = stats(sock);
                assertThat(rows.get("be/BACKEND")).containsEntry("econ", "1").containsEntry("lbtot", "2");
                assertThat(rows.get("be/s1")).containsEntry("lbtot", "2").containsEntry("stot", "3").containsEntry("req_tot", "3");
            }
        });
    }

    /**
     * An invalid response is the backend's and server's response error, no denial; a request given up mid-body ends
     * without a status, counted as "other"; a server's req_tot counts the responses it gave; each connection attempt
     * is a session of the server (stot), retries too; the stats socket's own connection is not in CurrConns; the
     * backend's HTTP/1 bytes come in from the servers.
     */
    @Test
    void countersOfFailedTransactions() throws Exception {
        int dead = FulcrumProcess.refusedPort();
        String backends = "balance first\nserver s1 ORIGIN\nretries 1\nuse-server dead if { path /dead }\nserver dead 127.0.0.1:%d";
        withProxy("%HU %ST %tsc", backends.formatted(dead), (logs, fe, sock) -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/garbage")).status()).isEqualTo(502);
            }
            assertThat(logs.next()).isEqualTo("/garbage 502 PH--\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send("POST /post HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc");
                Thread.sleep(300);
            }
            assertThat(logs.next()).matches("/post -1 C[CD]--\n"); // (whether the server connection was up yet)
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/dead")).status()).isEqualTo(503);
            }
            assertThat(logs.next()).isEqualTo("/dead 503 SC--\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/ok")).status()).isEqualTo(200);
            }
            assertThat(logs.next()).isEqualTo("/ok 200 ----\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/big")).status()).isEqualTo(200);
            }
            assertThat(logs.next()).isEqualTo("/big 200 ----\n");

            Map<String, Map<String, String>> rows = stats(sock);
            assertThat(rows.get("fe/FRONTEND")).containsEntry("dresp", "0").containsEntry("hrsp_other", "1");
            assertThat(rows.get("be/BACKEND")).containsEntry("dresp", "0").containsEntry("eresp", "1")
                    .containsEntry("hrsp_other", "1").containsEntry("econ", "1");
            assertThat(rows.get("be/s1")).containsEntry("dresp", "0").containsEntry("eresp", "1")
                    .containsEntry("req_tot", "2").containsEntry("stot", "4");
            assertThat(rows.get("be/dead")).containsEntry("stot", "2").containsEntry("econ", "1");
            Map<String, String> be = rows.get("be/BACKEND");
            assertThat(Long.parseLong(be.get("h1_bytes_in"))).as("from the servers")
                    .isGreaterThan(5000).isGreaterThan(Long.parseLong(be.get("h1_bytes_out")));
            String info = CliClient.send(sock, "show info");
            assertThat(info).contains("\nCurrConns: 0\n");
        });
    }

    /**
     * A frontend's HTTP/1 streams (h1_total_streams) are the requests of which something came: not a connection
     * closed before its first byte, which req_tot counts; a bad request and each pipelined request count.
     */
    @Test
    void h1StreamsOfAFrontend() throws Exception {
        withProxy("%HU %ST %tsc", "server s1 ORIGIN", (logs, fe, sock) -> {
            try (Socket s = TcpProxyKit.connect(fe)) {
                Thread.sleep(200);
            }
            assertThat(logs.next()).isEqualTo("<BADREQ> 400 CR--\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange("GARBAGE\r\n\r\n").status()).isEqualTo(400);
            }
            assertThat(logs.next()).isEqualTo("<BADREQ> 400 PR--\n");
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(get("/a") + get("/b"));
                assertThat(c.read().status()).isEqualTo(200);
                assertThat(c.read().status()).isEqualTo(200);
            }
            assertThat(logs.next()).isEqualTo("/a 200 ----\n");
            assertThat(logs.next()).isEqualTo("/b 200 ----\n");
            assertThat(stats(sock).get("fe/FRONTEND")).containsEntry("h1_total_streams", "3").containsEntry("req_tot", "4");
        });
    }

    /**
     * A server counts each interim response (100 Continue, 103 Early Hints) as a request and a 1xx response when it
     * arrives, as HAProxy does; its frontend and backend count the final response only.
     */
    @Test
    void interimResponsesCountAtTheServer() throws Exception {
        withProxy("%HU %ST", "server s1 ORIGIN", (logs, fe, sock) -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                c.send(get("/early"));
                assertThat(c.readHead().startLine()).startsWith("HTTP/1.1 103 ");
                assertThat(c.read().status()).isEqualTo(200);
                c.send("POST /continue HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n");
                assertThat(c.readHead().startLine()).startsWith("HTTP/1.1 100 ");
                c.send("abc");
                assertThat(c.read().status()).isEqualTo(200);
            }
            assertThat(logs.next()).isEqualTo("/early 200\n");
            assertThat(logs.next()).isEqualTo("/continue 200\n");
            Map<String, Map<String, String>> rows = stats(sock);
            assertThat(rows.get("be/s1")).containsEntry("req_tot", "4").containsEntry("hrsp_1xx", "2").containsEntry("hrsp_2xx", "2");
            for (String proxy : new String[] {"fe/FRONTEND", "be/BACKEND"}) {
                assertThat(rows.get(proxy)).as(proxy).containsEntry("hrsp_1xx", "0").containsEntry("hrsp_2xx", "2");
            }
            assertThat(rows.get("be/BACKEND")).containsEntry("req_tot", "2");
        });
    }

    /**
     * show info's Tasks follows what HAProxy keeps a task for: a client connection, the idle server connection a
     * request leaves, a transaction in progress with its connections; Run_queue is 0 when nothing is ready to run.
     */
    @Test
    void tasksFollowConnectionsAndStreams() throws Exception {
        withProxy("%HU", "server s1 ORIGIN", (logs, fe, sock) -> {
            long base = info(sock, "Tasks");
            for (long was = -1; was != base; Thread.sleep(100)) { // (once the port probe of the start is gone)
                was = base;
                base = info(sock, "Tasks");
            }
            assertThat(info(sock, "Run_queue")).isZero();
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                awaitTasks(sock, base + 1);
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                assertThat(logs.next()).isEqualTo("/\n");
                awaitTasks(sock, base + 2); // its idle server connection too
                try (HttpClientConn held = HttpClientConn.open(fe)) {
                    held.send(get(HOLD + "1000"));
                    awaitTasks(sock, base + 5); // its connection, its stream, its server connection (a new one)
                    assertThat(held.read().status()).isEqualTo(200);
                }
            }
        });
    }

    private static long info(Path sock, String field) throws Exception {
        String prefix = field + ": ";
        return Long.parseLong(CliClient.send(sock, "show info").lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow().substring(prefix.length()));
    }

    /** Waits until show info's Tasks is {@code n} (bounded), then checks it is. */
    private static void awaitTasks(Path sock, long n) throws Exception {
        // The value polled is the one checked: a fresh reading may still count the previous poll's CLI session.
        long seen = info(sock, "Tasks");
        for (int i = 0; i < 100 && seen != n; i++) {
            Thread.sleep(10);
            seen = info(sock, "Tasks");
        }
        assertThat(seen).isEqualTo(n);
    }

    /** The stream's task fetches: its calls, and 0 for the times HAProxy measures only under "profiling.tasks on". */
    @Test
    void taskFetchesWithoutProfiling() throws Exception {
        withProxy("%[cpu_calls] %[cpu_ns_avg] %[cpu_ns_tot] %[lat_ns_avg] %[lat_ns_tot]", "server s1 ORIGIN", (logs, fe, sock) -> {
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                assertThat(c.exchange(get("/")).status()).isEqualTo(200);
                assertThat(logs.next()).matches("[1-9]\\d* 0 0 0 0\n");
            }
        });
    }
}
