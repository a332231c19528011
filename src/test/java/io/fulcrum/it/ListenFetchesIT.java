package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the fetches of a rule are usable: HAProxy checks them against the stages its section runs at, a frontend's, a
 * backend's, or both in a listen or defaults section (so a listen's http-request rule may read {@code be_name}, a
 * frontend's may not). Each case is one rule in one kind of section through {@code -c}, with haproxy 2.6's verdict and
 * messages ({@code -Dit.proxy=haproxy} runs haproxy itself); then a listen's frontend-side rules and log reading its
 * backend at run time.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenFetchesIT {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    /**
     * A rule in a section of {@code kind} and what -c says of it: "ALERT " or "WARNING " and the message after its
     * "parsing [file:line] : "; nothing when it is accepted.
     */
    private record Case(String kind, String rule, String... messages) {
    }

    private static final List<Case> CASES = List.of(
            new Case("listen", "tcp-request content set-var(txn.x) cur_server_timeout"),
            new Case("listen", "http-request set-header X %[be_name]"),
            new Case("listen", "http-request set-var(txn.x) be_name"),
            new Case("listen", "http-request deny if { be_name x }"),
            new Case("listen", "tcp-request content capture be_name len 10"),
            new Case("listen", "http-request capture be_name len 10",
                    "ALERT error detected in proxy 'p' while parsing 'http-request capture' rule : fetch method 'be_name' extracts information from 'backend', none of which is available here."),
            new Case("listen", "http-response deny if { req.hdr(x) y }",
                    "WARNING anonymous acl will never match because it uses keyword 'req.hdr' which is incompatible with 'backend http-response header rule'"),
            new Case("listen", "tcp-response content set-var(txn.x) req.hdr(x)",
                    "ALERT fetch method 'set-var(txn.x)' extracts information from 'HTTP request headers', none of which is available here"),
            // sc-set-gpt is checked at one stage per rule set (the frontend's for requests), set-timeout nowhere
            new Case("listen", "http-request sc-set-gpt0(0) be_name",
                    "ALERT error detected in proxy 'p' while parsing 'http-request sc-set-gpt0(0)' rule : fetch method 'be_name' extracts information from 'backend', none of which is available here."),
            new Case("listen", "http-request set-timeout server srv_name"),
            new Case("listen", "unique-id-format %[be_name]"),
            new Case("listen", "unique-id-format %[srv_name]",
                    "ALERT Parsing [t.cfg:16]: failed to parse unique-id : sample fetch <srv_name]> may not be reliably used here because it needs 'server' which is not available here."),
            new Case("defaults", "http-request set-var(txn.x) be_name"),
            new Case("defaults", "tcp-request content set-var-fmt(txn.x) %[be_name]"),
            new Case("frontend", "http-request set-header X %[be_name]",
                    "ALERT error detected in frontend 'p' while parsing 'http-request set-header' rule : sample fetch <be_name]> may not be reliably used here because it needs 'backend' which is not available here."),
            new Case("frontend", "tcp-request content set-var(txn.x) cur_server_timeout",
                    "ALERT fetch method 'set-var(txn.x)' extracts information from 'backend', none of which is available here"),
            new Case("frontend", "tcp-request content track-sc0 res.hdr(x) table t",
                    "ALERT 'tcp-request content track-sc0' : fetch method 'res.hdr(x)' extracts information from 'HTTP response headers', none of which is available here"),
            new Case("backend", "http-request capture be_name len 10",
                    "ALERT error detected in backend 'p' while parsing 'http-request capture' rule : fetch method 'be_name' extracts information from 'backend', none of which is available here."),
            new Case("backend", "tcp-request session accept",
                    "ALERT tcp-request session is not allowed because backend p is not a frontend"),
            new Case("backend", "stick on res.hdr(x) table t",
                    "ALERT 'stick': fetch method 'res.hdr' extracts information from 'HTTP response headers', none of which is available during request."));

    private static final String HEAD = """
            global
                log stdout format raw local0
            defaults
                mode http
                log global
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            backend t
                stick-table type string size 10
                server s 127.0.0.1:1
            """;

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    /** The configuration of a case: its rule in a section of its kind (a named defaults section has a frontend using it). */
    private static String config(Case c) {
        String rule = "    " + c.rule() + "\n";
        return HEAD + switch (c.kind()) {
            case "frontend" -> "frontend p\n    bind 127.0.0.1:1\n    tcp-request inspect-delay 1s\n" + rule + "    default_backend t\n";
            case "backend" -> "backend p\n    tcp-request inspect-delay 1s\n    tcp-response inspect-delay 1s\n" + rule
                    + "    server s 127.0.0.1:1\nfrontend f\n    bind 127.0.0.1:1\n    default_backend p\n";
            case "listen" -> "listen p\n    bind 127.0.0.1:1\n    tcp-request inspect-delay 1s\n    tcp-response inspect-delay 1s\n" + rule
                    + "    server s 127.0.0.1:1\n";
            default -> "defaults d\n    mode http\n    log global\n    timeout client 1s\n    timeout server 1s\n    timeout connect 1s\n"
                    + "    tcp-request inspect-delay 1s\n    tcp-response inspect-delay 1s\n" + rule
                    + "frontend f from d\n    bind 127.0.0.1:1\n    default_backend t\n";
        };
    }

    /** The alerts and warnings of {@code -c} (not its closing summary), as {@link Case} writes them. */
    private static List<String> check(String config, int line) throws Exception {
        Path file = FulcrumProcess.config(config);
        List<String> args = List.of("-c", "-f", file.toString());
        try (FulcrumProcess p = TcpProxyKit.haproxy()
                ? FulcrumProcess.start(List.of(System.getProperty("it.haproxy", "/usr/sbin/haproxy")), args)
                : FulcrumProcess.start(args)) {
            int exit = p.awaitExit(Duration.ofSeconds(60));
            String at = "config : parsing [" + file + ":" + line + "] : ";
            List<String> messages = new ArrayList<>();
            for (String l : p.stderr().split("\n")) {
                String level = l.startsWith("[ALERT]") ? "ALERT " : l.startsWith("[WARNING]") ? "WARNING " : null;
                if (level != null && !l.contains("Error(s) found") && !l.contains("Fatal errors")) {
                    messages.add(level + (l.contains(at) ? l.substring(l.indexOf(at) + at.length())
                            : l.substring(l.indexOf("config : ") + "config : ".length()).replace(file.toString(), "t.cfg")));
                }
            }
            assertThat(exit).as(p.stderr()).isEqualTo(messages.stream().anyMatch(m -> m.startsWith("ALERT")) ? 1 : 0);
            return messages;
        }
    }

    @TestFactory
    Stream<DynamicTest> eachKindOfSectionAcceptsTheFetchesHaproxyAccepts() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : CASES) {
            String config = config(c);
            int line = config.substring(0, config.indexOf("    " + c.rule() + "\n")).split("\n", -1).length;
            Future<List<String>> run = POOL.submit(() -> check(config, line));
            tests.add(DynamicTest.dynamicTest(c.kind() + ": " + c.rule(),
                    () -> assertThat(run.get()).as(config).containsExactly(c.messages())));
        }
        return tests.stream();
    }

    @Test
    void listenRulesAndLogReadTheListenAsTheirBackend() throws Exception {
        int port = freePort();
        try (HttpOrigin app = HttpOrigin.ok("app")) {
            String config = """
                    global
                        log stdout format raw local0
                    defaults
                        mode http
                        log global
                        timeout connect 2s
                        timeout client 10s
                        timeout server 7s
                    listen l
                        bind 127.0.0.1:%d
                        log-format "lf %%[var(txn.t)] %%[var(txn.c)] %%[var(txn.b)] %%[var(txn.s)] %%[be_name]"
                        tcp-request content set-var(txn.t) be_server_timeout
                        tcp-request content set-var(txn.c) cur_server_timeout
                        http-request set-var(txn.b) be_name
                        http-request deny deny_status 403 if { be_name nope }
                        http-request return status 200 content-type text/plain lf-string "be=%%[be_name] id=%%[be_id]" if { path /ret }
                        http-response set-var(txn.s) srv_name
                        server s1 127.0.0.1:%d
                    """.formatted(port, app.port());
            try (FulcrumProcess proxy = serve(config, port);
                 HttpClientConn c = HttpClientConn.open(port)) {
                assertThat(c.exchange(get("/")).bodyText()).isEqualTo("app");
                assertThat(c.exchange(get("/ret")).bodyText()).isEqualTo("be=l id=1");
                // (no server connection yet at the tcp-request content rules: cur_server_timeout is 0 there)
                assertThat(TcpResponseIT.logLines(proxy, "lf ", 2)).containsExactly("lf 7000 0 l s1 l", "lf 7000 0 l - l");
            }
        }
    }
}
