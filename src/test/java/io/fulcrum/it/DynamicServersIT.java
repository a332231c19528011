package io.fulcrum.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code add server} and {@code del server} over a real admin socket, with real origins: a server added at run time starts
 * in maintenance with the first free id, takes its turns once enabled, shows in the stats and the state dumps, and is gone
 * from them all once deleted; its checks wait for {@code enable health}; and every refusal in HAProxy's words. Every
 * expectation was taken from HAProxy 2.6 and holds for it (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DynamicServersIT {
    private HttpOrigin a;
    private HttpOrigin b;
    private HttpOrigin c;
    private HttpOrigin slow;
    private final CountDownLatch release = new CountDownLatch(1);
    private Path admin;
    private Path operator;
    private int fe;
    private FulcrumProcess proxy;

    @BeforeEach
    void start() throws Exception {
        a = HttpOrigin.ok("A");
        b = HttpOrigin.ok("B");
        c = HttpOrigin.ok("C");
        slow = HttpOrigin.start(x -> {
            release.await(30, TimeUnit.SECONDS);
            x.reply(200, "S");
        });
        admin = Files.createTempDirectory("fulcrum-dyn").resolve("admin.sock");
        operator = Files.createTempDirectory("fulcrum-dyn").resolve("operator.sock");
        fe = freePort();
        proxy = HttpKit.serve("""
                global
                    stats socket %s level admin
                    stats socket %s level operator
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    use_backend solo if { path_beg /solo }
                    default_backend be
                backend be
                    balance roundrobin
                    server s1 127.0.0.1:%d
                    server s3 127.0.0.1:%d id 3
                backend solo
                    balance leastconn
                    server z 127.0.0.1:%d disabled
                backend en
                    balance leastconn
                    default-server weight 33
                    server y 127.0.0.1:%d disabled
                backend st
                    balance static-rr
                    server t1 127.0.0.1:%d
                backend empty
                    id 12
                backend srch
                    balance source
                    server h1 127.0.0.1:%d
                backend chk
                    server c1 127.0.0.1:%d check inter 10s
                    server c2 127.0.0.1:%d
                    server c3 127.0.0.1:%d
                    use-server c2 if { path /never }
                    http-request set-var(txn.up) srv_is_up(chk/c3)
                """.formatted(admin, operator, fe, a.port(), c.port(), a.port(), a.port(), a.port(), a.port(), a.port(), a.port(), a.port()), fe);
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        proxy.close();
        for (HttpOrigin o : new HttpOrigin[] {a, b, c, slow}) {
            o.close();
        }
    }

    private String cli(String command) throws Exception {
        return CliClient.send(admin, command);
    }

    private void expect(String command, String answer) throws Exception {
        assertThat(cli(command)).as(command).isEqualTo(answer);
    }

    /** The bodies of {@code n} requests, each on its own connection, counted. */
    private Map<String, Long> spread(int n) throws Exception {
        Map<String, Long> got = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            try (HttpClientConn conn = HttpClientConn.open(fe)) {
                got.merge(conn.exchange(HttpKit.get("/")).bodyText(), 1L, Long::sum);
            }
        }
        return got;
    }

    /** The rows of backend {@code be} in {@code show stat}: name, status, weight, sid, with the addr. */
    private String statRows(String backend) throws Exception {
        return cli("show stat").lines().filter(l -> l.startsWith(backend + ",")).map(l -> {
            String[] f = l.split(",", -1);
            return f[1] + " " + f[17] + " " + f[18] + " " + f[28] + " " + f[73];
        }).collect(Collectors.joining("\n"));
    }

    /** The server lines of {@code show servers state be} without their time since the last change. */
    private String stateLines(String backend) throws Exception {
        return cli("show servers state " + backend).lines().filter(l -> !l.startsWith("#") && l.contains(" "))
                .map(l -> l.replaceFirst("^\\d+ (\\S+ \\d+ \\S+ \\S+ \\d+ \\d+ \\d+ \\d+) \\d+ ", "$1 T "))
                .collect(Collectors.joining("\n"));
    }

    private void await(String command, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        String out;
        while (!done.test(out = cli(command))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("'" + command + "' still answers:\n" + out + "\nstderr:\n" + proxy.stderr());
            }
            Thread.sleep(50);
        }
    }

    @Test
    void anAddedServerTakesTrafficOnceEnabledAndLeavesEveryViewOnceDeleted() throws Exception {
        expect("add server be/s2 127.0.0.1:" + b.port(), "New server registered.\n\n");
        // The first free id, after the configured servers; in maintenance, weight 1, no check.
        assertThat(stateLines("be")).isEqualTo("""
                be 1 s1 127.0.0.1 2 0 1 1 T 1 0 2 0 0 0 0 - %d - 0 0 - - 0
                be 3 s3 127.0.0.1 2 0 1 1 T 1 0 2 0 0 0 1 - %d - 0 0 - - 0
                be 2 s2 127.0.0.1 0 1 1 1 T 1 0 0 0 0 0 0 - %d - 0 0 - - 0""".formatted(a.port(), c.port(), b.port()));
        assertThat(statRows("be")).isEqualTo("""
                s1 no check 1 1 127.0.0.1:%d
                s3 no check 1 3 127.0.0.1:%d
                s2 MAINT 1 2 127.0.0.1:%d
                BACKEND UP 2 0\s""".formatted(a.port(), c.port(), b.port()));
        assertThat(spread(6)).isEqualTo(Map.of("A", 3L, "C", 3L));

        expect("enable server be/s2", "\n");
        // Its health stays 0 (no check brings it to rise), as HAProxy's.
        assertThat(stateLines("be")).contains("be 2 s2 127.0.0.1 2 0 1 1 T 1 0 0 0 0 0 0 - " + b.port());
        assertThat(spread(6)).isEqualTo(Map.of("A", 2L, "B", 2L, "C", 2L));
        assertThat(statRows("be")).contains("s2 no check 1 2 127.0.0.1:" + b.port()).contains("BACKEND UP 3 0");
        assertThat(cli("show servers conn be")).contains("be/s2 ").contains("/2 127.0.0.1 " + b.port() + " - 0 0 ");

        expect("del server be/s2", "Only servers in maintenance mode can be deleted.\n");
        expect("disable server be/s2", "\n");
        expect("del server be/s2", "Server deleted.\n");
        assertThat(cli("show stat")).doesNotContain("be,s2,");
        assertThat(stateLines("be")).doesNotContain(" s2 ");
        assertThat(cli("show servers conn be")).doesNotContain("be/s2");
        expect("get weight be/s2", "No such server.\n\n");
        expect("del server be/s2", "No such server.\n");
        assertThat(spread(4)).isEqualTo(Map.of("A", 2L, "C", 2L));
        // Its id is free again.
        expect("add server be/s4 127.0.0.1:" + b.port(), "New server registered.\n\n");
        assertThat(stateLines("be")).contains("be 2 s4 127.0.0.1 0 1 1 1 T");
    }

    @Test
    void aDynamicServerTakesNoDefaultServerSettingAndIsNotDeletedWhileServing() throws Exception {
        // "enabled" starts it ready (HAProxy 2.6 then leaves it out of the load balancing: docs/differences.md); weight 1.
        expect("add server en/e 127.0.0.1:" + slow.port() + " enabled", "New server registered.\n\n");
        assertThat(stateLines("en")).endsWith("en 2 e 127.0.0.1 2 0 1 1 T 1 0 2 0 0 0 0 - " + slow.port() + " - 0 0 - - 0");
        expect("add server solo/n 127.0.0.1:" + slow.port(), "New server registered.\n\n");
        expect("enable server solo/n", "\n");
        CompletableFuture<String> pending = CompletableFuture.supplyAsync(() -> {
            try (HttpClientConn conn = HttpClientConn.open(fe)) {
                return conn.exchange(HttpKit.get("/solo")).bodyText();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await("show stat", out -> out.lines().anyMatch(l -> l.startsWith("solo,n,0,0,1,")));
        expect("disable server solo/n", "\n");
        expect("del server solo/n", "Server still has connections attached to it, cannot remove it.\n");
        release.countDown();
        assertThat(pending.get(20, TimeUnit.SECONDS)).isEqualTo("S");
        await("show stat", out -> out.lines().anyMatch(l -> l.startsWith("solo,n,0,0,0,")));
        expect("del server solo/n", "Server deleted.\n");
    }

    @Test
    void checksAndAgentsWaitForTheirEnableCommands() throws Exception {
        expect("add server be/h 127.0.0.1:" + b.port() + " check inter 200 rise 1 fall 1", "New server registered.\n\n");
        expect("add server be/g 127.0.0.1:" + b.port() + " agent-check agent-port " + FulcrumProcess.refusedPort(),
                "New server registered.\n\n");
        // check state 2: configured, not enabled; the agent's 18: an agent, configured.
        assertThat(stateLines("be")).contains("be 2 h 127.0.0.1 0 1 1 1 T 1 0 0 2 0 0 0 - " + b.port())
                .contains("be 4 g 127.0.0.1 0 1 1 1 T 1 0 0 0 18 0 0 - " + b.port());
        expect("enable server be/h", "\n");
        expect("enable health be/h", "\n");
        await("show stat", out -> out.lines().anyMatch(l -> l.startsWith("be,h,") && l.contains(",L4OK,")));
        expect("add server be/t 127.0.0.1:" + b.port() + " track chk/c1", "New server registered.\n\n");
        assertThat(statRows("be")).contains("t MAINT 1 5");
        expect("del server chk/c1", "This server cannot be removed at runtime due to other configuration elements pointing to it.\n");
        expect("del server be/t", "Server deleted.\n");
        expect("disable server chk/c1", "\n");
        expect("del server chk/c1", "This server cannot be removed at runtime due to other configuration elements pointing to it.\n");
        expect("disable server be/h", "\n");
        expect("del server be/h", "Server deleted.\n");
    }

    @Test
    void refusalsAreHaproxys() throws Exception {
        expect("add server be", "Require 'backend/server'.\n");
        expect("add server be/", "Require 'backend/server'.\n");
        expect("add server /x 127.0.0.1:1", "Require 'backend/server'.\n");
        expect("add server nob/x 127.0.0.1:1", "No such backend.\n");
        expect("add server st/x 127.0.0.1:1", "Backend must use a dynamic load balancing to support dynamic servers.\n");
        expect("add server srch/x 127.0.0.1:1", "Backend must use a dynamic load balancing to support dynamic servers.\n");
        expect("add server be/x", "'server' expects <name> and <addr>[:<port>] as arguments.\n\n");
        expect("add server be/s1 127.0.0.1:1", "Already exists a server with the same name in backend.\n\n");
        assertThat(cli("add server be/x 127.0.0.1:1 id 3")).matches("'id' : custom id 3 already used at .*:16 \\('server s3'\\)\\.\n\n");
        expect("add server be/x 127.0.0.1:1 id 0", "'id' : custom id has to be > 0.\n\n");
        expect("add server be/x 127.0.0.1:99999", "invalid port '99999'\n\n");
        expect("add server be/x 127.0.0.1:1 cookie c", "'cookie' option is not accepted for dynamic server\n\n");
        expect("add server be/x 127.0.0.1:1 init-addr none", "'init-addr' option is not accepted for dynamic server\n\n");
        expect("add server be/x 127.0.0.1:1 redir http://x", "'redir' option is not accepted for dynamic server\n\n");
        expect("add server be/x 127.0.0.1:1 bogus", "unknown keyword 'bogus'.\n\n");
        expect("add server be/x 127.0.0.1:1 weight 300", "weight of server x is not within 0 and 256 (300)..\n\n");
        expect("add server be/x 127.0.0.1:1 track nope", "unable to find required server 'nope' for tracking.\n\n");
        expect("add server be/x 127.0.0.1:1 track nob/c1", "unable to find required proxy 'nob' for tracking.\n\n");
        expect("add server be/x 127.0.0.1:1 track chk/c2",
                "unable to use chk/c2 for tracking as it does not have any check nor agent enabled.\n\n");
        expect("add server be/x 127.0.0.1:1 track chk/c1 check", "unable to enable checks and tracking at the same time!\n\n");
        expect("add server be/x 127.0.0.1:1 agent-check", "server x does not have agent port. Agent check has been disabled.\n\n");
        expect("add server be/x 127.0.0.1 check", "config: backend 'be': server 'x' has neither service port nor check port nor"
                + " tcp_check rule 'connect' with port information.\n\n");
        expect("add server be/d 127.0.0.1:1", "New server registered.\n\n");
        expect("add server be/x 127.0.0.1:1 track be/d", "unable to use be/d for tracking as it is a dynamic server.\n\n");
        assertThat(CliClient.send(operator, "add server be/x 127.0.0.1:1")).isEqualTo("Permission denied\n\n");
        assertThat(CliClient.send(operator, "del server be/d")).isEqualTo("Permission denied\n\n");

        expect("del server be", "Require 'backend/server'.\n");
        expect("del server nob/x", "No such backend.\n");
        expect("del server be/nope", "No such server.\n");
        expect("del server be/s1", "Only servers in maintenance mode can be deleted.\n");
        expect("set server chk/c2 state maint", "\n");
        expect("del server chk/c2", "This server cannot be removed at runtime due to other configuration elements pointing to it.\n");
        expect("set server chk/c3 state maint", "\n");
        expect("del server chk/c3", "This server cannot be removed at runtime due to other configuration elements pointing to it.\n");
        // A configured server may go too, from maintenance: by name or by #id.
        expect("disable server be/s3", "\n");
        expect("del server be/#3", "Server deleted.\n");
        expect("del server be/d", "Server deleted.\n");
        assertThat(statRows("be")).isEqualTo("s1 no check 1 1 127.0.0.1:" + a.port() + "\nBACKEND UP 1 0 ");
    }

    @Test
    void aBackendWithoutServersTakesOne() throws Exception {
        expect("add server empty/e1 127.0.0.1:" + b.port() + " check inter 200", "New server registered.\n\n");
        // (bk_f_forced_id: the backend's id is its id keyword's)
        assertThat(stateLines("empty")).isEqualTo("empty 1 e1 127.0.0.1 0 1 1 1 T 1 0 0 2 0 1 0 - " + b.port() + " - 0 0 - - 0");
        assertThat(statRows("empty")).isEqualTo("e1 MAINT 1 1 127.0.0.1:" + b.port() + "\nBACKEND DOWN 0 0 ");
        expect("enable server empty/e1", "\n");
        assertThat(statRows("empty")).isEqualTo("e1 no check 1 1 127.0.0.1:" + b.port() + "\nBACKEND UP 1 0 ");
    }

    @Test
    void helpListsBoth() throws Exception {
        assertThat(cli("help")).contains("""
                  add server <bk>/<srv>                   : create a new server
                """).contains("""
                  del server <bk>/<srv>                   : remove a dynamically added server
                """);
    }
}
