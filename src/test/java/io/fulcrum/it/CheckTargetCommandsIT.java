package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code set server <b>/<s> check-addr|check-port|agent-addr|agent-port|agent-send} over a real stats socket: HAProxy
 * 2.6's answers word for word, nothing applied on an error, and the next checks really going where they were sent
 * (the check and agent servers here see them). Also runs against haproxy (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckTargetCommandsIT {
    /** Nothing listens there: a check sent to it fails to connect (any 127/8 address is the loopback). */
    private static final String NOWHERE = "127.0.0.3";

    private Path cli;
    private Origin origin;
    private Origin check2;
    private Origin agent;
    private Origin agent2;
    /** What the agents read, one entry per connection (up to the first line feed). */
    private final BlockingQueue<String> agentGot = new LinkedBlockingQueue<>();
    private FulcrumProcess proxy;

    // s2 and s4 check every 2 s, not less: HAProxy spreads the first checks of all servers (s1's agent included) over
    // the shortest interval above 1 s.
    @BeforeEach
    void start() throws Exception {
        cli = Files.createTempDirectory("fulcrum-chk").resolve("stats.sock");
        // The health checks wait for an answer, so that each reaches the server's accept() (a check that ends at once
        // resets its connection, which may then never be accepted).
        Origin.Handler pong = s -> {
            readLine(s);
            send(s, "pong\n");
        };
        origin = Origin.start(pong);
        check2 = Origin.start(pong);
        Origin.Handler agentHandler = s -> {
            agentGot.add(readLine(s));
            send(s, "up\n");
        };
        agent = Origin.start(agentHandler);
        agent2 = Origin.start(agentHandler);
        int fe = freePort();
        proxy = serve("""
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                    timeout check 2s
                backend be
                    option tcp-check
                    tcp-check send ping\n
                    tcp-check expect string pong
                    server s1 127.0.0.1:%d check inter 150 rise 1 fall 1 addr %s agent-check agent-addr %s agent-port %d agent-inter 150 agent-send "hello\\n"
                    server s2 127.0.0.1:%d check inter 2s
                    server s3 127.0.0.1:%d
                    server s4 127.0.0.1:+1 check inter 2s port %d
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, origin.port(), NOWHERE, NOWHERE, agent.port(), origin.port(), origin.port(), origin.port(), fe), fe);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        for (Origin o : new Origin[] {origin, check2, agent, agent2}) {
            o.close();
        }
    }

    @Test
    void theChecksGoWhereTheyAreSent() throws Exception {
        awaitStat("check_status", "L4CON");
        assertThat(row("s1")).endsWith(" 0 " + NOWHERE + " " + NOWHERE + " " + agent.port());

        // The health check moves to the address, then to another port.
        expect("set server be/s1 check-addr 127.0.0.1", "\n");
        awaitStat("check_status", "L7OK");
        awaitStat("status", "UP");
        assertThat(row("s1")).endsWith(" 0 127.0.0.1 " + NOWHERE + " " + agent.port());
        awaitAccepted(origin);
        expect("set server be/s1 check-port " + check2.port(), "\n");
        awaitAccepted(check2);
        expect("set server be/s1 check-addr " + NOWHERE + " port " + origin.port(), "\n");
        awaitStat("check_status", "L4CON");
        assertThat(row("s1")).endsWith(" " + origin.port() + " " + NOWHERE + " " + NOWHERE + " " + agent.port());

        // The agent: address, then the string it is sent, then its port.
        assertThat(agent.accepted()).isZero();
        expect("set server be/s1 agent-addr localhost", "\n");
        assertThat(agentGot.poll(10, TimeUnit.SECONDS)).isEqualTo("hello\n");
        assertThat(row("s1")).endsWith(" 127.0.0.1 " + agent.port());
        expect("set server be/s1 agent-send bye\\ now", "\n");
        awaitAgent("bye now");
        expect("set server be/s1 agent-port " + agent2.port(), "\n");
        awaitAccepted(agent2);
        expect("set server be/s1 agent-addr 127.0.0.1 port " + agent.port(), "\n");
        assertThat(row("s1")).endsWith(" 127.0.0.1 " + agent.port());
        expect("set server be/s1 agent-send", "\n"); // an empty string: the agent is sent nothing, and answers all the same
        awaitAgent("");
    }

    @Test
    void errorsChangeNothing() throws Exception {
        String before = row("s1");
        expect("set server be/s1 check-addr", "set server <b>/<s> check-addr requires an address and optionally a port.\n\n");
        expect("set server be/s1 check-addr localhost", "invalid addr 'localhost'\n"); // no name is resolved for checks
        expect("set server be/s1 check-addr 1.2.3", "invalid addr '1.2.3'\n");
        expect("set server be/s1 check-addr 127.0.0.9 port 65536", "provided port is invalid\n");
        expect("set server be/s1 check-addr 127.0.0.9 port x", "provided port is not an integer\n");
        expect("set server be/s1 check-addr 127.0.0.9 port", "provided port is not an integer\n");
        expect("set server be/s1 check-port +5", "provided port is not an integer\n");
        expect("set server be/s1 check-port 2147483648", "provided port is not an integer\n");
        expect("set server be/s1 check-port 2147483647", "provided port is invalid\n");
        expect("set server be/s1 check-port -1", "provided port is invalid\n");
        expect("set server be/s3 check-addr 127.0.0.9", "health checks are not enabled on this server\n");
        expect("set server be/s3 check-addr foo", "health checks are not enabled on this server\n");
        expect("set server be/s4 check-port 0", "can't unset 'port' since MAPPORTS is in use\n");
        expect("set server be/s4 check-addr 127.0.0.9 port 0", "can't unset 'port' since MAPPORTS is in use\n");
        expect("set server be/s1 agent-addr", "set server <b>/<s> agent-addr requires an address and optionally a port.\n\n");
        expect("set server be/s1 agent-addr 1.2.3.4.5", "invalid addr '1.2.3.4.5'\n");
        expect("set server be/s1 agent-addr no-such-host.invalid", "invalid addr 'no-such-host.invalid'\n");
        expect("set server be/s1 agent-addr 127.0.0.9 port 99999", "provided port is invalid\n");
        expect("set server be/s1 agent-port", "set server <b>/<s> agent-port requires a port.\n\n");
        expect("set server be/s1 agent-port 1x", "provided port is not an integer\n");
        expect("set server be/s2 agent-addr 127.0.0.9", "agent checks are not enabled on this server\n");
        expect("set server be/s2 agent-port 5", "agent checks are not enabled on this server\n");
        expect("set server be/s2 agent-send x", "agent checks are not enabled on this server.\n\n");
        assertThat(row("s1")).isEqualTo(before);
        expect("set severity-output number; set server be/s1 agent-port x; set server be/s2 agent-send x; set server be/s1 agent-addr",
                "\n[4]: provided port is not an integer\n[3]: agent checks are not enabled on this server.\n\n"
                        + "[3]: set server <b>/<s> agent-addr requires an address and optionally a port.\n\n");

        // Disabled checks take no new target either.
        expect("disable agent be/s1; set server be/s1 agent-send x; set server be/s1 agent-port 7", "\n"
                + "agent checks are not enabled on this server.\n\nagent checks are not enabled on this server\n");
        expect("disable health be/s1; set server be/s1 check-port 7", "\nhealth checks are not enabled on this server\n");
        assertThat(row("s1")).isEqualTo(before);

        // "port" is the only word read after the address; a valid one applies.
        expect("enable health be/s1; set server be/s1 check-addr 127.0.0.9 prt 5", "\n\n");
        assertThat(row("s1")).endsWith(" 0 127.0.0.9 " + NOWHERE + " " + agent.port());
        expect("set server be/s1 check-port -0", "\n");
        expect("set server be/s4 check-port 007", "\n");
        assertThat(row("s4")).endsWith(" 7 - - " + origin.port()); // HAProxy: without agent-port, "port" is the agent's too
    }

    /** Fulcrum only (the issue asks for it; HAProxy 2.6 has no such command): the agent's interval from the next check on. */
    @Test
    void agentInterSetsTheAgentsInterval() throws Exception {
        Assumptions.assumeFalse(TcpProxyKit.haproxy(), "'set server agent-inter' is not an haproxy 2.6 command");
        expect("set server be/s1 agent-inter", "set server <b>/<s> agent-inter requires a delay.\n\n");
        expect("set server be/s1 agent-inter 0", "invalid delay '0'\n");
        expect("set server be/s1 agent-inter 5x", "invalid delay '5x'\n");
        expect("set server be/s2 agent-inter 1s", "agent checks are not enabled on this server\n");
        expect("set server be/s1 agent-addr 127.0.0.1 port " + agent.port(), "\n");
        awaitAccepted(agent);
        int before = agent.accepted();
        Thread.sleep(1000);
        assertThat(agent.accepted()).as("asked every 150 ms").isGreaterThan(before + 1);
        expect("set server be/s1 agent-inter 1h", "\n");
        Thread.sleep(1000); // the check already planned still comes
        int settled = agent.accepted();
        Thread.sleep(1500);
        assertThat(agent.accepted()).as("no check before an hour").isEqualTo(settled);
    }

    /**
     * Where the server's checks go: its line of {@code show servers state be} from srv_fqdn on (srv_port, srv_check_port,
     * srv_check_addr, srv_agent_addr, srv_agent_port...), the check results before it moving with each check.
     */
    private String row(String server) throws Exception {
        for (String line : CliClient.send(cli, "show servers state be").split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 17 && f[3].equals(server)) {
                return String.join(" ", java.util.Arrays.copyOfRange(f, 17, f.length));
            }
        }
        throw new AssertionError("no " + server + " in show servers state");
    }

    private void expect(String command, String answer) throws Exception {
        assertThat(CliClient.send(cli, command)).as(command).isEqualTo(answer);
    }

    private void awaitAgent(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String got;
        do {
            got = agentGot.poll(1, TimeUnit.SECONDS);
        } while (!text.equals(got) && System.nanoTime() < deadline);
        assertThat(got).as("what the agent read").isEqualTo(text);
    }

    private static void awaitAccepted(Origin o) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (o.accepted() == 0) {
            assertThat(System.nanoTime()).as("a check reached port " + o.port() + " " + o.errors()).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private void awaitStat(String field, String value) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Map<String, String> row;
        while (!value.equals((row = StatsIT.rows(CliClient.send(cli, "show stat")).get("be/s1")).get(field))) {
            assertThat(System.nanoTime()).as("be/s1 " + field + " never became " + value + ": " + row).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Up to the first line feed (included), or what came before the agent's end of input or a short silence. */
    private static String readLine(Socket s) throws IOException {
        s.setSoTimeout(300);
        InputStream in = s.getInputStream();
        StringBuilder b = new StringBuilder();
        try {
            int c;
            while ((c = in.read()) >= 0) {
                b.append((char) c);
                if (c == '\n') {
                    break;
                }
            }
        } catch (IOException e) {
            // nothing more was sent, or the check gave up (the agent's timeout is its interval)
        }
        return b.toString();
    }
}
