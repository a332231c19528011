package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server's agent (a TCP server here answering what the test says) moving its weight and states: what the log says,
 * the agent_* fields of {@code show stat}, and where the traffic goes, as haproxy 2.6 does (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentCheckIT {
    private static final String STATE = "status", WEIGHT = "weight", AGENT = "agent_status";

    private volatile String answer = "up\n";

    @Test
    void theAgentsAnswersMoveTheServer() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-agent").resolve("stats.sock");
        try (Origin origin = Origin.start(s -> send(s, "o"));
             Origin agent = Origin.start(s -> send(s, answer))) {
            int fe = freePort();
            String cfg = config(cli, fe, "s1 127.0.0.1:%d weight 20 check inter 300 rise 1 fall 1 agent-check agent-port %d agent-inter 200"
                    .formatted(origin.port(), agent.port()));
            try (FulcrumProcess p = serve(cfg, fe)) {
                awaitStat(cli, AGENT, "L7OK");
                answer = "75%\n";
                awaitStat(cli, AGENT, "CHECKED");
                assertThat(stat(cli)).containsEntry(WEIGHT, "15").containsEntry("agent_desc", "No status change")
                        .containsEntry("agent_code", "").containsEntry(STATE, "UP");
                assertThat(traffic(fe)).isEqualTo("o");

                answer = "drain\n";
                awaitStat(cli, STATE, "DRAIN (agent)");
                p.awaitStderr("Server be/s1 enters drain state.");
                assertThat(traffic(fe)).isEmpty();
                answer = "50%\n"; // a weight while in forced drain: said at each answer
                awaitStat(cli, WEIGHT, "10");
                p.awaitStderr("Server be/s1 remains in forced drain mode.");
                assertThat(stat(cli)).containsEntry(STATE, "DRAIN (agent)");
                answer = "ready 75%\n";
                awaitStat(cli, STATE, "UP");
                p.awaitStderr("Server be/s1 is UP (leaving forced drain).");
                awaitStat(cli, WEIGHT, "15");
                assertThat(traffic(fe)).isEqualTo("o");

                answer = "down #gone away\n";
                awaitStat(cli, STATE, "DOWN (agent)");
                p.awaitStderr("Agent check for server be/s1 failed, reason: Layer7 wrong status, code: 0, "
                        + "info: \"via agent : down (gone away)\", check duration: ");
                assertThat(stat(cli)).containsEntry(AGENT, "L7STS").containsEntry("agent_desc", "Layer7 wrong status");
                assertThat(traffic(fe)).isEmpty();
                answer = "up junk\n";
                awaitStat(cli, STATE, "UP");
                p.awaitStderr("Agent check for server be/s1 succeeded, reason: Layer7 check passed, code: 0, "
                        + "info: \"via agent : up (junk)\", check duration: ");
                assertThat(traffic(fe)).isEqualTo("o");

                answer = "maint\n";
                awaitStat(cli, STATE, "MAINT");
                p.awaitStderr("Server be/s1 is going DOWN for maintenance.");
                assertThat(traffic(fe)).isEmpty();
                answer = "ready up 50%\n";
                awaitStat(cli, STATE, "UP");
                awaitStat(cli, WEIGHT, "10");
                assertThat(stat(cli)).containsEntry(AGENT, "L7OK");

                answer = "down"; // no CR nor LF: ignored, the server stays up; the agent's status stays, said so
                awaitStat(cli, "last_agt", "Ignoring incomplete line from agent");
                Thread.sleep(1000);
                assertThat(stat(cli)).containsEntry(STATE, "UP").containsEntry(AGENT, "L7OK");
                assertThat(p.stderr()).doesNotContain("Layer7 invalid response").doesNotContain("via agent : down\"");
                assertThat(traffic(fe)).isEqualTo("o");

                answer = ""; // nothing at all: an invalid response (the agent's rules are a send and a read: step 2)
                awaitStat(cli, AGENT, "L7RSP");
                p.awaitStderr("Agent check for server be/s1 failed, reason: Layer7 invalid response, "
                        + "info: \"TCPCHK got an empty response at step 2\", check duration: ");
                assertThat(stat(cli)).containsEntry(STATE, "UP");
            }
        }
    }

    /** An incomplete line as an agent's first answer: there is no status to keep, the check ends as a timeout. */
    @Test
    void anIncompleteFirstLineIsATimeout() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-agent").resolve("stats.sock");
        try (Origin origin = Origin.start(s -> send(s, "o"));
             Origin agent = Origin.start(s -> send(s, "25%"))) {
            int fe = freePort();
            String cfg = config(cli, fe, "s1 127.0.0.1:%d agent-check agent-port %d agent-inter 200".formatted(origin.port(), agent.port()));
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Agent check for server be/s1 failed, reason: Layer7 timeout, check duration: ");
                awaitStat(cli, "last_agt", "Ignoring incomplete line from agent"); // the next ones keep it and say so
                awaitStat(cli, AGENT, "L7TOUT");
                assertThat(stat(cli)).containsEntry(WEIGHT, "1").containsEntry(STATE, "no check");
                assertThat(p.stderr()).doesNotContain("Layer7 timeout, info");
            }
        }
    }

    /**
     * "maxconn:N" sets the server's maxconn, {@code show stat}'s slim and the traffic with it (three connections at the
     * server at once where the configuration allows one); a number {@code set maxconn server} would refuse is a warning
     * in last_agt, and a word not understood an error, as haproxy's.
     */
    @Test
    void anAgentsMaxconnLimitsTheServer() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-agent").resolve("stats.sock");
        answer = "maxconn:3\n";
        try (Origin origin = Origin.start(s -> {
                 Thread.sleep(1500);
                 send(s, "o");
             });
             Origin agent = Origin.start(s -> send(s, answer))) {
            int fe = freePort();
            String cfg = config(cli, fe, "s1 127.0.0.1:%d maxconn 1 agent-check agent-port %d agent-inter 200".formatted(origin.port(), agent.port()));
            try (FulcrumProcess p = serve(cfg, fe)) {
                awaitStat(cli, "slim", "3");
                try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                    List<Future<String>> answers = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        answers.add(clients.submit(() -> traffic(fe)));
                    }
                    for (Future<String> a : answers) {
                        assertThat(a.get()).isEqualTo("o");
                    }
                }
                assertThat(origin.peak()).isEqualTo(3);

                answer = "maxconn:x\n";
                awaitStat(cli, "last_agt", "agent warns : maxconn string empty or preceded by garbage");
                assertThat(stat(cli)).containsEntry(AGENT, "CHECKED").containsEntry("slim", "3");
                answer = "up maxconn:5x\n";
                awaitStat(cli, "last_agt", "via agent : up (Trailing garbage in maxconn string)");
                answer = "maxconn:7 junk\n";
                awaitStat(cli, "last_agt", "agent reports an error : junk");
                assertThat(stat(cli)).containsEntry("slim", "7");
            }
        }
    }

    /**
     * An agent that accepts and never answers: the check gives up after {@code timeout check} when the backend sets it,
     * else after {@code agent-inter}, as HAProxy's (a layer-7 timeout, logged once; an agent that fails leaves the
     * server up).
     */
    @Test
    void aSilentAgentTimesOutAfterTimeoutCheckElseAgentInter() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-agent").resolve("stats.sock");
        try (Origin origin = Origin.start(s -> send(s, "o"));
             Origin silent = Origin.start(s -> s.getInputStream().transferTo(java.io.OutputStream.nullOutputStream()))) {
            int fe = freePort();
            String cfg = """
                    global
                        stats socket %s level admin
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 5s
                        timeout server 5s
                        option log-health-checks
                    backend a
                        server s1 127.0.0.1:%d agent-check agent-port %d agent-inter 1500
                    backend b
                        timeout check 500
                        server s2 127.0.0.1:%2$d agent-check agent-port %3$d agent-inter 6s
                    frontend fe
                        bind 127.0.0.1:%d
                        default_backend a
                    """.formatted(cli, origin.port(), silent.port(), fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                String line = " failed, reason: Layer7 timeout, check duration: \\d+ms, status: 1/1 UP.\n";
                Pattern a = Pattern.compile("Agent check for server a/s1" + line);
                Pattern b = Pattern.compile("Agent check for server b/s2" + line);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!(a.matcher(p.stderr()).find() && b.matcher(p.stderr()).find()) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(a.matcher(p.stderr()).find() && b.matcher(p.stderr()).find()).as("both agents timed out: %s", p.stderr()).isTrue();
                // The durations of the next checks (haproxy 2.6 counts its first ones from its start-up): agent-inter
                // without timeout check, timeout check with it, well before agent-inter 6s.
                Thread.sleep(8000);
                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                assertThat(Long.parseLong(rows.get("a/s1").get("agent_duration"))).isBetween(1400L, 5000L);
                Map<String, String> s2 = rows.get("b/s2");
                assertThat(Long.parseLong(s2.get("agent_duration"))).isBetween(400L, 3000L);
                assertThat(s2.get(AGENT)).endsWith("L7TOUT");
                assertThat(s2).containsEntry("agent_desc", "Layer7 timeout").containsEntry(STATE, "no check");
                assertThat(traffic(fe)).isEqualTo("o");
            }
        }
    }

    /** A tcp frontend on {@code fe} whose backend be has the one {@code server}, logging its checks. */
    private static String config(Path cli, int fe, String server) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 5s
                    timeout server 5s
                    option log-health-checks
                backend be
                    server %s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, server, fe);
    }

    private static String traffic(int fe) throws Exception {
        try (Socket s = connect(fe)) {
            return readToEof(s, 100);
        }
    }

    private static void awaitStat(Path cli, String field, String value) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!value.equals(stat(cli).get(field))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("be/s1 " + field + " never became " + value + ": " + stat(cli));
            }
            Thread.sleep(50);
        }
    }

    private static Map<String, String> stat(Path cli) throws Exception {
        return StatsIT.rows(CliClient.send(cli, "show stat")).get("be/s1");
    }
}
