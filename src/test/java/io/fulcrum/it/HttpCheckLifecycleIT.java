package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One server's HTTP health check through a whole life: its check server (which the test drives) answers 200, then
 * garbage, then nothing (a timeout), then 503, 200, 404 ({@code disable-on-404}) and 200 again. At each step: the
 * server's state and check fields in {@code show stat}, where the clients' requests go (a backup server while the only
 * active one is down or draining, a 503 when no server is left) and, at the end, every state-change line word for word.
 * The expectations are haproxy 2.6's: the test passes against it (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpCheckLifecycleIT {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

    /** What each check server answers to its health check: a response, "" for silence. */
    private volatile String active = OK;
    private volatile String backup = OK;

    @Test
    void aServerGoesThroughEveryCheckOutcome() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-lifecycle").resolve("stats.sock");
        try (Origin s1 = Origin.start(s -> answer(s, "s1", active));
             Origin b1 = Origin.start(s -> answer(s, "b1", backup))) {
            int fe = freePort();
            String cfg = """
                    global
                        stats socket %s level admin
                    defaults
                        mode http
                        timeout connect 1s
                        timeout client 5s
                        timeout server 5s
                        timeout check 2s
                    backend be
                        option httpchk GET /health
                        http-check disable-on-404
                        server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                        server b1 127.0.0.1:%d check inter 200 rise 1 fall 1 backup
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend be
                    """.formatted(cli, s1.port(), b1.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                Checks c = new Checks(cli);
                c.await("s1", "UP", "L7OK", "200", "Layer7 check passed");
                c.await("b1", "UP", "L7OK", "200", "Layer7 check passed");
                assertThat(request(fe)).isEqualTo("200 s1");
                int from = p.stderr().length(); // what a loaded box's first checks did (a timeout) is not the test's

                active = "garbage\r\n\r\n";
                c.await("s1", "DOWN", "L7RSP", "", "Layer7 invalid response");
                assertThat(request(fe)).isEqualTo("200 b1");

                active = ""; // reads the check and never answers
                c.await("s1", "DOWN", "L7TOUT", "", "Layer7 timeout");
                assertThat(request(fe)).isEqualTo("200 b1");

                active = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n";
                c.await("s1", "DOWN", "L7STS", "503", "Layer7 wrong status");
                backup = active;
                c.await("b1", "DOWN", "L7STS", "503", "Layer7 wrong status");
                assertThat(request(fe)).isEqualTo("503 ");

                active = OK;
                c.await("s1", "UP", "L7OK", "200", "Layer7 check passed");
                assertThat(request(fe)).isEqualTo("200 s1");
                backup = OK;
                c.await("b1", "UP", "L7OK", "200", "Layer7 check passed");

                active = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
                c.await("s1", "NOLB", "L7OKC", "404", "Layer7 check conditionally passed");
                assertThat(request(fe)).isEqualTo("200 b1");

                active = OK;
                c.await("s1", "UP", "L7OK", "200", "Layer7 check passed");
                assertThat(request(fe)).isEqualTo("200 s1");

                assertThat(stateChanges(p.stderr().substring(from))).containsExactly(
                        "[WARNING] Server be/s1 is DOWN, reason: Layer7 invalid response, check duration: Nms."
                                + " 0 active and 1 backup servers left. Running on backup. 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[WARNING] Backup Server be/b1 is DOWN, reason: Layer7 wrong status, code: 503, info: \"Service Unavailable\","
                                + " check duration: Nms. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.",
                        "[ALERT] backend 'be' has no server available!",
                        "[WARNING] Server be/s1 is UP, reason: Layer7 check passed, code: 200, check duration: Nms."
                                + " 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Backup Server be/b1 is UP, reason: Layer7 check passed, code: 200, check duration: Nms."
                                + " 1 active and 1 backup servers online. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Server be/s1 is stopping, reason: Layer7 check conditionally passed, code: 404, check duration: Nms."
                                + " 0 active and 1 backup servers online. Running on backup. 0 sessions requeued, 0 total in queue.",
                        "[WARNING] Server be/s1 is UP, reason: Layer7 check passed, code: 200, check duration: Nms."
                                + " 1 active and 1 backup servers online. 0 sessions requeued, 0 total in queue.");
            }
        }
    }

    /** A check server: the health check ({@code /health}) gets {@code health}, any other request the server's name. */
    private static void answer(Socket s, String name, String health) throws IOException {
        String head = CheckKit.readHead(s.getInputStream());
        if (!head.startsWith("GET /health ")) {
            send(s, "HTTP/1.1 200 OK\r\nContent-Length: " + name.length() + "\r\nConnection: close\r\n\r\n" + name);
        } else if (health.isEmpty()) {
            readToEof(s, 1); // silent until the check gives up
        } else {
            send(s, health);
        }
    }

    /** A client's request through the frontend: the status code and the body when it is a server's name. */
    private static String request(int fe) throws IOException {
        try (Socket s = connect(fe)) {
            send(s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            String answer = readToEof(s, 65536);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            return answer.substring(9, 12) + " " + (body.length() == 2 ? body : "");
        }
    }

    /** The state-change lines (servers and backend), their pid and check durations left out. */
    private static List<String> stateChanges(String stderr) {
        List<String> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.contains("Server be/") || line.contains("backend 'be'")) {
                lines.add(line.replaceFirst("^\\[(\\w+)\\] +\\(\\d+\\) : ", "[$1] ").replaceAll("check duration: \\d+ms", "check duration: Nms"));
            }
        }
        return lines;
    }

    /** The servers' fields of {@code show stat} (the same names and values in both programs). */
    private record Checks(Path cli) {
        void await(String server, String status, String checkStatus, String code, String desc) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Map<String, String> row;
            while (!checkStatus.equals((row = StatsIT.rows(CliClient.send(cli, "show stat")).get("be/" + server)).get("check_status"))
                    || !status.equals(row.get("status"))) {
                assertThat(System.nanoTime()).as(server + " never reached " + status + "/" + checkStatus + ": " + row).isLessThan(deadline);
                Thread.sleep(50);
            }
            assertThat(List.of(row.get("check_code"), row.get("check_desc"))).as(server + " " + checkStatus).containsExactly(code, desc);
        }
    }
}
