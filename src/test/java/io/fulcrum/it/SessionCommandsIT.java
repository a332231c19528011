package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code show sess}, {@code shutdown session} and {@code shutdown sessions server} over a real stats socket, with
 * live TCP and HTTP streams to a server that never answers. The layout, answers, errors and log lines were
 * taken from HAProxy 2.6, and the test passes against it (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SessionCommandsIT {
    /** A line of {@code show sess}, HAProxy 2.6's layout; groups: id, source port, frontend, backend, server. */
    private static final Pattern LINE = Pattern.compile("(0x[0-9a-f]+): proto=tcpv4 src=127\\.0\\.0\\.1:(\\d+) fe=(\\S+) be=(\\S+)"
            + " srv=(\\S+) ts=[0-9a-f]+ epoch=\\S+ age=\\d+s calls=\\d+ rate=\\d+ cpu=\\d+ lat=\\d+"
            + " rq\\[f=[0-9a-f]+h,i=\\d+,an=[0-9a-f]+h,rx=\\S*,wx=\\S*,ax=\\S*]"
            + " rp\\[f=[0-9a-f]+h,i=\\d+,an=[0-9a-f]+h,rx=\\S*,wx=\\S*,ax=\\S*]"
            + " scf=\\[8,[0-9a-f]+h,fd=\\d+] scb=\\[8,[0-9a-f]+h,fd=\\d+] exp=\\S* rc=\\d+ c_exp=\\S*");

    private Origin silent;
    private Path admin;
    private Path operator;
    private FulcrumProcess proxy;
    private int http;
    private int tcp;
    private int marked;

    @BeforeEach
    void start() throws Exception {
        silent = Origin.start(s -> {
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // reads and never answers
            }
        });
        admin = Files.createTempDirectory("fulcrum-sess").resolve("admin.sock");
        operator = Files.createTempDirectory("fulcrum-sess").resolve("oper.sock");
        http = freePort();
        tcp = freePort();
        marked = freePort();
        proxy = serve("""
                global
                    stats socket %s level admin
                    stats socket %s level operator
                defaults
                    log stdout format raw local0
                    timeout connect 2s
                    timeout client 30s
                    timeout server 30s
                frontend fe
                    mode http
                    option httplog
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                    mode http
                    server s1 127.0.0.1:%d
                frontend ft
                    mode tcp
                    option tcplog
                    bind 127.0.0.1:%d
                    default_backend bt
                backend bt
                    mode tcp
                    server s2 127.0.0.1:%d
                frontend fm
                    mode tcp
                    option tcplog
                    bind 127.0.0.1:%d
                    default_backend bm
                backend bm
                    mode tcp
                    server m1 127.0.0.1:%d check inter 60s on-marked-down shutdown-sessions on-marked-up shutdown-backup-sessions
                    server mb 127.0.0.1:%d backup
                """.formatted(admin, operator, http, silent.port(), tcp, silent.port(), marked, silent.port(), silent.port()), tcp);
        proxy.awaitPort(http, Duration.ofSeconds(10));
        proxy.awaitPort(marked, Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        silent.close();
    }

    @Test
    void showSessListsLiveStreamsAndShutdownSessionKillsOne() throws Exception {
        try (Socket h = connect(http); Socket t = connect(tcp)) {
            send(h, "GET /x HTTP/1.1\r\nHost: a\r\n\r\n");
            send(t, "hello");
            Matcher hl = awaitLine("fe", h.getLocalPort());
            Matcher tl = awaitLine("ft", t.getLocalPort());
            assertThat(List.of(hl.group(3), hl.group(4), hl.group(5))).containsExactly("fe", "be", "s1");
            assertThat(List.of(tl.group(3), tl.group(4), tl.group(5))).containsExactly("ft", "bt", "s2");

            String detail = CliClient.send(admin, "show sess " + tl.group(1));
            assertThat(detail).startsWith(tl.group(1) + ": [").contains(" proto=tcpv4 source=127.0.0.1:" + t.getLocalPort() + "\n")
                    .contains("  frontend=ft (id=").contains("  backend=bt (id=").contains("  server=s2 (id=1)");
            assertThat(CliClient.send(admin, "show sess all")).contains(tl.group(1) + ": [").contains(hl.group(1) + ": [");

            // A whole request whose response has not begun: the client gets a 502 and keeps its connection.
            assertThat(CliClient.send(admin, "shutdown session " + hl.group(1))).isEqualTo("\n");
            assertThat(readHead(h)).startsWith("HTTP/1.1 502 ");
            // (HAProxy frees it shortly after; asking to shut it down again is not tested: HAProxy's ids are the streams'
            // addresses, which its next stream, the CLI's own, may take again. Fulcrum's ids are never reused.)
            awaitAnswer("show sess " + hl.group(1), "Session not found.\n\n");

            assertThat(CliClient.send(admin, "shutdown sessions server bt/s2")).isEqualTo("\n");
            assertThat(TcpProxyKit.awaitClosed(t, 5000)).isGreaterThanOrEqualTo(0);
            awaitLog(" fe be/s1 ", " KH-- ");
            awaitLog(" ft bt/s2 ", " K- ");
            assertThat(CliClient.send(admin, "show sess")).doesNotContain("fe=ft").doesNotContain("fe=fe");
        }
    }

    @Test
    void aServerMarkedDownKillsItsStreamsAndOneMarkedUpKillsTheBackupsOnes() throws Exception {
        closedBy("m1", "set server bm/m1 health down");
        awaitLog(" bm/m1 ", " D- ");
        closedBy("mb", "set server bm/m1 health up");
        awaitLog(" bm/mb ", " U- ");
        closedBy("m1", "set server bm/m1 state maint");
    }

    /** Opens a stream through fm, checks that it goes to {@code server}, and that {@code command} closes it. */
    private void closedBy(String server, String command) throws Exception {
        try (Socket c = connect(marked)) {
            send(c, "x");
            assertThat(awaitLine("fm", c.getLocalPort()).group(5)).isEqualTo(server);
            assertThat(CliClient.send(admin, command)).isEqualTo("\n");
            TcpProxyKit.awaitClosed(c, 5000);
        }
    }

    @Test
    void badArgumentsGetHaproxysAnswers() throws Exception {
        assertThat(CliClient.send(admin, "shutdown session")).isEqualTo("Session pointer expected (use 'show sess').\n\n");
        assertThat(CliClient.send(admin, "shutdown session zzz")).isEqualTo("Session pointer expected (use 'show sess').\n\n");
        assertThat(CliClient.send(admin, "shutdown session 0x1234")).isEqualTo("No such session (use 'show sess').\n\n");
        assertThat(CliClient.send(admin, "show sess 0x1234")).isEqualTo("Session not found.\n\n");
        assertThat(CliClient.send(admin, "shutdown sessions server")).isEqualTo("Require 'backend/server'.\n\n");
        assertThat(CliClient.send(admin, "shutdown sessions server bt")).isEqualTo("Require 'backend/server'.\n\n");
        assertThat(CliClient.send(admin, "shutdown sessions server bt/nope")).isEqualTo("No such server.\n\n");
        assertThat(CliClient.send(admin, "shutdown sessions server nope/s2")).isEqualTo("No such backend.\n\n");
        assertThat(CliClient.send(operator, "shutdown session 0x1234")).isEqualTo("Permission denied\n\n");
        assertThat(CliClient.send(admin, "help show sess")).contains(
                "  show sess [id]                          : report the list of current sessions or dump this exact session\n");
        assertThat(CliClient.send(admin, "help shutdown")).contains(
                "  shutdown session [id]                   : kill a specific session\n",
                "  shutdown sessions server <bk>/<srv>     : kill sessions on a server\n");
    }

    @Test
    void streamsShowTheirReadTimeoutsAndTheStatsSocketsOwnConnectionIsListed() throws Exception {
        try (Socket t = connect(tcp)) {
            send(t, "hello");
            String line = awaitLine("ft", t.getLocalPort()).group(0);
            // timeout client and timeout server are 30s: what is left of each, as the request's and the response's
            assertThat(line).containsPattern(" rq\\[f=[0-9a-f]+h,i=\\d+,an=[0-9a-f]+h,rx=(2[89]|30)s,")
                    .containsPattern(" rp\\[f=[0-9a-f]+h,i=\\d+,an=[0-9a-f]+h,rx=(2[89]|30)s,");
        }
        assertThat(CliClient.send(admin, "show sess")).containsPattern("(?m)^0x[0-9a-f]+: proto=unix_stream src=unix:1 fe=GLOBAL "
                + "be=<NONE> srv=<none> ts=[0-9a-f]+ epoch=\\S+ age=\\d+s calls=\\d+ rate=\\d+ cpu=\\d+ lat=\\d+ rq\\[\\S+] rp\\[\\S+] "
                + "scf=\\[8,[0-9a-f]+h,fd=\\d+] scb=\\[8,[0-9a-f]+h,fd=-1] exp=\\S* rc=\\d+ c_exp=\\S*$");
        // both ends of a unix socket named by the listener's id, in the detailed form too
        assertThat(CliClient.send(admin, "show sess all")).containsPattern("(?m) proto=unix_stream source=unix:1\n"
                + "(.*\n)*?  frontend=GLOBAL \\(id=0 mode=tcp\\).* addr=unix:1\n");
    }

    /** The {@code show sess} line of the stream of frontend {@code fe} from client port {@code port}, once it is there. */
    private Matcher awaitLine(String fe, int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            String out = CliClient.send(operator, "show sess");
            for (String line : out.split("\n")) {
                Matcher m = LINE.matcher(line);
                if (m.matches() && m.group(3).equals(fe) && m.group(2).equals(Integer.toString(port)) && !m.group(5).equals("<none>")) {
                    return m;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no stream of " + fe + " from port " + port + " in:\n" + out);
            }
            Thread.sleep(50);
        }
    }

    private void awaitAnswer(String command, String answer) throws Exception {
        await(() -> CliClient.send(admin, command).equals(answer), () -> "'" + command + "' still answers:\n" + CliClient.send(admin, command));
    }

    /** Waits for a log line with both parts. */
    private void awaitLog(String part, String other) throws Exception {
        await(() -> proxy.stdout().lines().anyMatch(l -> l.contains(part) && l.contains(other)),
                () -> "no log line with '" + part + "' and '" + other + "' in:\n" + proxy.stdout());
    }

    private static void await(Callable<Boolean> done, Callable<String> failure) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure.call());
            }
            Thread.sleep(50);
        }
    }

    private static String readHead(Socket s) throws Exception {
        s.setSoTimeout(5000);
        InputStream in = s.getInputStream();
        StringBuilder b = new StringBuilder();
        while (!b.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.append((char) c);
        }
        return b.toString();
    }
}
