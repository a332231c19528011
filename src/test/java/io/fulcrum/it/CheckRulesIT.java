package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Check rules against real check servers, as haproxy 2.6 runs them: {@code http-check expect rstatus}, {@code min-recv}
 * (an answer shorter than it is a timeout, a longer one matches), tcp-check {@code expect rstring}, {@code rbinary}
 * and their negated forms, and the PROXY header a check server receives from {@code check-send-proxy} and the
 * {@code send-proxy} of a {@code tcp-check connect} / {@code http-check connect} (v1 and v2); rules of the other kind
 * than the check's option, ignored with a warning; rules written before their option, a section's rules replacing its
 * defaults', option httpchk's request merged with an http-check send; the order haproxy demands of http-check rules.
 * The log lines word for word and {@code show stat}. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckRulesIT {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";

    /** A check server that reads what comes, writes {@code answer} and keeps the connection until the check closes it. */
    private static Origin answering(String answer) throws IOException {
        return Origin.start(s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, answer);
            readToEof(s, 1 << 16);
        });
    }

    @Test
    void expectRules() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        try (Origin ok = answering(OK);
             Origin created = answering("HTTP/1.1 201 Created\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
             Origin pong = answering("+PONG\r\n");
             Origin binary = answering("\u0001\u0002\u00ff\u0004")) {
            int fe = freePort();
            String server = "    server s1 127.0.0.1:%d check inter 300ms\n";
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "tcp", fe, "rstatus") + """
                    backend rstatus
                        option httpchk
                        http-check expect rstatus ^2[0-9][0-9]$
                    """ + server.formatted(created.port()) + """
                    backend rstatusko
                        option httpchk
                        http-check expect rstatus ^3
                    """ + server.formatted(created.port()) + """
                    backend httpminrecv
                        option httpchk
                        http-check expect min-recv 10000 string ok
                    """ + server.formatted(ok.port()) + """
                    backend httpminrecvok
                        option httpchk
                        http-check expect min-recv 40 string ok
                    """ + server.formatted(ok.port()) + """
                    backend tcpminrecv
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect min-recv 10 string PONG
                    """ + server.formatted(pong.port()) + """
                    backend tcpminrecvok
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect min-recv 7 string PONG
                    """ + server.formatted(pong.port()) + """
                    backend rstring
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect rstring ^\\+P.NG
                    """ + server.formatted(pong.port()) + """
                    backend notrstring
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect ! rstring P.NG
                    """ + server.formatted(pong.port()) + """
                    backend notstring
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect ! string PONG
                    """ + server.formatted(pong.port()) + """
                    backend rbinary
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect rbinary ^0102..04
                    """ + server.formatted(binary.port()) + """
                    backend notrbinary
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect ! rbinary 02FF
                    """ + server.formatted(binary.port()) + """
                    backend rbinaryko
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect rbinary ^02
                    """ + server.formatted(binary.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                String passed = "Health check for server %s/s1 succeeded, reason: Layer7 check passed, ";
                String failed = "Health check for server %s/s1 failed, reason: %s, check duration: ";
                p.awaitStderr(passed.formatted("rstatus") + "code: 201, check duration: ");
                p.awaitStderr("Health check for server rstatusko/s1 failed, reason: Layer7 wrong status, code: 201, info: \"Created\", "
                        + "check duration: ");
                p.awaitStderr(passed.formatted("httpminrecv") + "code: 200, check duration: "); // a complete response ends the wait
                p.awaitStderr(passed.formatted("httpminrecvok") + "code: 200, check duration: ");
                p.awaitStderr("Health check for server tcpminrecv/s1 failed, reason: Layer7 timeout, info: \" at step 2 of tcp-check (expect string 'PONG')\", check duration: ");
                p.awaitStderr(passed.formatted("tcpminrecvok") + "code: 0, info: \"(tcp-check)\", check duration: ");
                p.awaitStderr(passed.formatted("rstring") + "code: 0, info: \"(tcp-check)\", check duration: ");
                p.awaitStderr("Health check for server notrstring/s1 failed, reason: Layer7 invalid response, "
                        + "info: \"TCPCHK matched unwanted content (regex) at step 2\", check duration: ");
                p.awaitStderr("Health check for server notstring/s1 failed, reason: Layer7 invalid response, "
                        + "info: \"TCPCHK matched unwanted content 'PONG' at step 2\", check duration: ");
                p.awaitStderr(passed.formatted("rbinary") + "code: 0, info: \"(tcp-check)\", check duration: ");
                p.awaitStderr("Health check for server notrbinary/s1 failed, reason: Layer7 invalid response, "
                        + "info: \"TCPCHK matched unwanted content (binary regex) at step 2\", check duration: ");
                // no match yet: the check waits for more until its timeout
                p.awaitStderr("Health check for server rbinaryko/s1 failed, reason: Layer7 timeout, "
                        + "info: \" at step 2 of tcp-check (expect binary regex)\", check duration: ");

                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                assertThat(rows.get("rstatus/s1")).containsEntry("status", "UP").containsEntry("check_code", "201");
                assertThat(StatsIT.lastCheck(rows.get("rstatus/s1"))).isEqualTo("L7OK");
                assertThat(StatsIT.lastCheck(rows.get("tcpminrecv/s1"))).isEqualTo("L7TOUT");
                assertThat(StatsIT.lastCheck(rows.get("notrbinary/s1"))).isEqualTo("L7RSP");
            }
        }
    }

    @Test
    void rulesOfAnotherKindAreIgnored() throws Exception {
        try (Origin ok = answering(OK)) {
            int fe = freePort();
            String cfg = CheckKit.config("", "tcp", fe, "tcp") + """
                    backend tcp
                        option tcp-check
                        http-check expect status 201
                        server s1 127.0.0.1:%1$d check inter 300ms
                    backend http
                        option httpchk
                        tcp-check expect string nothing-like-it
                        server s1 127.0.0.1:%1$d check inter 300ms
                    """.formatted(ok.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server tcp/s1 succeeded, reason: Layer4 check passed, check duration: ");
                p.awaitStderr("Health check for server http/s1 succeeded, reason: Layer7 check passed, code: 200, check duration: ");
                assertThat(p.stderr()).contains(
                        "config : backend 'tcp' uses http-check rules without 'option httpchk', so the rules are ignored.",
                        "config : backend 'http' uses tcp-check rules without 'option tcp-check', so the rules are ignored.");
            }
        }
    }

    /**
     * What each check sends, as haproxy 2.6 builds its rules: tcp-check and http-check lines written before their
     * option apply; a section that writes rules of its own runs them instead of its defaults' (and an http-check send
     * there does not take the defaults' option request); option httpchk and an http-check send merge, whichever comes
     * first (the later one's method, URI, version, headers and body over the earlier's); rules of the other kind are
     * ignored, with a warning unless a later check option took their place.
     */
    private static final String TIMEOUTS = "    timeout connect 5s\n    timeout client 5s\n    timeout server 5s\n    timeout check 5s\n";

    @Test
    void rulesBeforeTheirOptionAndOfTheOtherKind() throws Exception {
        Map<String, String> sections = new java.util.LinkedHashMap<>();
        sections.put("t1", "tcp-check send T1\\r\\n\ntcp-check expect string HTTP\noption tcp-check");
        sections.put("h2", "http-check send hdr x-h2 yes\noption httpchk GET /h2");
        sections.put("h3", "http-check send meth PUT uri /h3 ver HTTP/1.1 hdr a 1 body B\noption httpchk");
        sections.put("h4", "option httpchk GET /h4 HTTP/1.0\\r\\nb:\\ 2\nhttp-check send hdr a 1");
        sections.put("m3", "tcp-check send M3\\r\\n\noption httpchk GET /m3");
        sections.put("m5", "option tcp-check\nhttp-check send uri /m5\ntcp-check send M5\\r\\n\ntcp-check expect string HTTP");
        sections.put("m6", "option httpchk\ntcp-check send M6\\r\\n\nhttp-check send uri /m6");
        sections.put("t3", "tcp-check send B3\\r\\n\ntcp-check expect string HTTP");
        sections.put("t4", "option tcp-check");
        sections.put("h10", "http-check send uri /h10");
        sections.put("h7", "");
        // every check waits for the answer: a check that ends once it sent resets its connection, and the reset may
        // discard its bytes before the origin reads them
        Map<String, List<String>> seen = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Origin> origins = new java.util.LinkedHashMap<>();
        try {
            for (String name : sections.keySet()) {
                List<String> got = new CopyOnWriteArrayList<>();
                seen.put(name, got);
                origins.put(name, Origin.start(s -> {
                    got.add(received(s));
                    send(s, OK);
                }));
            }
            int fe = freePort();
            StringBuilder cfg = new StringBuilder(CheckKit.config("", "tcp", fe, "t1"));
            for (Map.Entry<String, String> e : sections.entrySet()) {
                if (e.getKey().equals("t3")) {
                    cfg.append("defaults\n    mode tcp\n" + TIMEOUTS + "    option tcp-check\n    tcp-check send D3\\r\\n\n    tcp-check expect string HTTP\n");
                } else if (e.getKey().equals("h10")) {
                    cfg.append("defaults\n    mode tcp\n" + TIMEOUTS + "    option httpchk GET /d4\n"
                            + "    http-check send hdr x-d4 yes\n");
                }
                cfg.append("backend ").append(e.getKey()).append('\n').append(e.getValue().indent(4))
                        .append("    server s1 127.0.0.1:").append(origins.get(e.getKey()).port()).append(" check inter 300ms\n");
            }
            try (FulcrumProcess p = serve(cfg.toString(), fe)) {
                for (Map.Entry<String, List<String>> e : seen.entrySet()) {
                    awaitOne(e.getValue(), p, e.getKey());
                }
                Map<String, String> first = new java.util.TreeMap<>();
                seen.forEach((name, got) -> first.put(name, got.getFirst()));
                assertThat(first).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("t1", "T1\r\n"),
                        Map.entry("h2", "GET /h2 HTTP/1.0\r\nx-h2: yes\r\n\r\n"),
                        Map.entry("h3", "PUT /h3 HTTP/1.1\r\na: 1\r\ncontent-length: 1\r\nconnection: close\r\n\r\nB"),
                        Map.entry("h4", "GET /h4 HTTP/1.0\r\na: 1\r\n\r\n"),
                        Map.entry("m3", "GET /m3 HTTP/1.0\r\n\r\n"),
                        Map.entry("m5", "M5\r\n"),
                        Map.entry("m6", "OPTIONS /m6 HTTP/1.0\r\n\r\n"),
                        Map.entry("t3", "B3\r\n"),
                        Map.entry("t4", "D3\r\n"),
                        Map.entry("h10", "OPTIONS /h10 HTTP/1.0\r\n\r\n"),
                        Map.entry("h7", "GET /d4 HTTP/1.0\r\nx-d4: yes\r\n\r\n")));
                assertThat(p.stderr()).contains(
                        "config : backend 'm5' uses http-check rules without 'option httpchk', so the rules are ignored.",
                        "config : backend 'm6' uses tcp-check rules without 'option tcp-check', so the rules are ignored.",
                        "]: 'option httpchk' : hiding headers or body at the end of the version string is deprecated. Please, consider to use "
                                + "'http-check send' directive instead.");
                assertThat(p.stderr()).doesNotContain("backend 'm3' uses", "backend 't1' uses", "backend 't3' uses", "backend 'h10' uses");
            }
        } finally {
            for (Origin o : origins.values()) {
                o.close();
            }
        }
    }

    /** What a check sent on its connection: the bytes that came before it went quiet (a first check may be slow to send). */
    private static String received(Socket s) throws IOException {
        s.setSoTimeout(5000);
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = s.getInputStream().read(buf)) > 0; ) {
                b.write(buf, 0, n);
                s.setSoTimeout(300);
            }
        } catch (java.net.SocketTimeoutException quiet) {
            // all of it came
        }
        return b.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * The order haproxy demands of the http-check rules of a rule set in use, with its alerts and its step numbers (the
     * request of option httpchk and the send it merged with count as one step, numbered as the option's), and a
     * connect that does not come first.
     */
    @Test
    void ruleOrderRefusals() throws Exception {
        String backend = """
                defaults
                    mode http
                    timeout connect 1s
                backend b
                %s
                    server s 127.0.0.1:1 check
                """;
        assertThat(CheckKit.refusal(backend.formatted("""
                    http-check send uri /a
                    option httpchk POST
                    http-check send hdr x y
                """))).contains("parsing [%s:7] : 'http-check send' : unable to add http-check send rule at step 2 (missing connect rule)..");
        assertThat(CheckKit.refusal(backend.formatted("""
                    option httpchk
                    http-check connect
                    http-check expect status 200
                """))).contains("parsing [%s:7] : 'http-check expect' : unable to add http-check expect rule at step 2 (missing send rule)..");
        assertThat(CheckKit.refusal(backend.formatted("""
                    option httpchk
                    http-check connect
                    http-check send uri /x
                    http-check connect
                """))).contains("parsing [%s:8] : 'http-check connect' : unable to add http-check connect rule at step 2 (missing expect rule)..");
        assertThat(CheckKit.refusal(backend.formatted("""
                    option httpchk
                    http-check comment c1
                    http-check send uri /a
                    http-check comment c2
                    http-check send uri /b
                """))).contains("parsing [%s:9] : 'http-check send' : unable to add http-check send rule at step 3 (missing connect rule)..");
        String notFirst = "'%s connect' : first step MUST also be a 'connect', optionally preceded by a 'set-var', an 'unset-var' or a "
                + "'comment', when there is a 'connect' step in the tcp-check ruleset.";
        assertThat(CheckKit.refusal(backend.formatted("""
                    option httpchk
                    http-check send uri /a
                    http-check connect
                """))).contains("parsing [%s:7] : " + notFirst.formatted("http-check"));
        assertThat(CheckKit.refusal(backend.formatted("""
                    tcp-check send A
                    tcp-check connect
                    option tcp-check
                """))).contains("parsing [%s:6] : " + notFirst.formatted("tcp-check"));
    }

    /**
     * Which failing rule a {@code comment} rule's text is reported for, as haproxy 2.6 does: the rule right after it,
     * and the rules of the same kind that follow (an expect's own comment does not end a chain of expects; a rule of
     * another kind, a set-var or a connect does); in an expect's info and in the words of a timeout or a refused
     * connect.
     */
    @Test
    void commentsReachTheRulesOfTheirKindAfterThem() throws Exception {
        try (Origin closing = Origin.start(s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, "+PONG\r\n");
        });
             Origin holding = answering("+PONG\r\n");
             Origin http = answering(OK)) {
            int fe = freePort();
            int refused = FulcrumProcess.refusedPort();
            String server = "    server s1 127.0.0.1:%d check inter 300ms\n";
            String cfg = CheckKit.config("", "tcp", fe, "chain") + """
                    backend chain
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check comment "pong wanted"
                        tcp-check expect string PONG
                        tcp-check expect rstring P.NG comment own
                        tcp-check expect string nope
                    """ + server.formatted(closing.port()) + """
                    backend nearest
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check comment first
                        tcp-check comment second
                        tcp-check expect string nope
                    """ + server.formatted(closing.port()) + """
                    backend aftersend
                        option tcp-check
                        tcp-check comment "ping sent"
                        tcp-check send PING\\r\\n
                        tcp-check expect string nope
                    """ + server.formatted(closing.port()) + """
                    backend aftervar
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check comment "pong wanted"
                        tcp-check expect string PONG
                        tcp-check set-var(check.x) str(a)
                        tcp-check expect string nope
                    """ + server.formatted(closing.port()) + """
                    backend timedout
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check comment "pong wanted"
                        tcp-check expect string PONG
                        tcp-check expect string nope
                    """ + server.formatted(holding.port()) + """
                    backend connect
                        option tcp-check
                        tcp-check comment "second port"
                        tcp-check connect port %d
                    """.formatted(refused) + server.formatted(closing.port()) + """
                    backend connectafter
                        option tcp-check
                        tcp-check connect
                        tcp-check send PING\\r\\n
                        tcp-check comment "pong wanted"
                        tcp-check expect string PONG
                        tcp-check connect port %d
                    """.formatted(refused) + server.formatted(closing.port()) + """
                    backend http
                        option httpchk
                        http-check send meth GET uri /
                        http-check comment "200 wanted"
                        http-check expect status 200
                        http-check expect hdr name content-length
                        http-check expect status 500
                    """ + server.formatted(http.port()) + """
                    backend httpaftersend
                        option httpchk
                        http-check comment "get sent"
                        http-check send meth GET uri /
                        http-check expect status 500
                    """ + server.formatted(http.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                String failed = "Health check for server %s/s1 failed, reason: %s, info: \"%s\", check duration: ";
                String content = "TCPCHK did not match content 'nope' at step %d";
                p.awaitStderr(failed.formatted("chain", "Layer7 invalid response", content.formatted(5) + " comment: pong wanted"));
                p.awaitStderr(failed.formatted("nearest", "Layer7 invalid response", content.formatted(4) + " comment: second"));
                p.awaitStderr(failed.formatted("aftersend", "Layer7 invalid response", content.formatted(3)));
                p.awaitStderr(failed.formatted("aftervar", "Layer7 invalid response", content.formatted(5)));
                p.awaitStderr(failed.formatted("timedout", "Layer7 timeout", " at step 4 of tcp-check (expect string 'nope') comment: 'pong wanted'"));
                p.awaitStderr(failed.formatted("connect", "Layer4 connection problem",
                        "Connection refused at step 2 of tcp-check (connect port %d) comment: 'second port'".formatted(refused)));
                p.awaitStderr(failed.formatted("connectafter", "Layer4 connection problem",
                        "Connection refused at step 5 of tcp-check (connect port %d)".formatted(refused)));
                p.awaitStderr(failed.formatted("http", "Layer7 wrong status, code: 200", "OK comment: 200 wanted"));
                p.awaitStderr(failed.formatted("httpaftersend", "Layer7 wrong status, code: 200", "OK"));
            }
        }
    }

    /**
     * {@code tcp-check connect addr <ip>:<port>}: the check connects to that port when the rule names none, its own
     * {@code port} otherwise (haproxy 2.6's tcpcheck_eval_connect()).
     */
    @Test
    void connectAddrWithAPort() throws Exception {
        try (Origin ok = answering("+PONG\r\n")) {
            int fe = freePort();
            int refused = FulcrumProcess.refusedPort();
            String cfg = CheckKit.config("", "tcp", fe, "addrport") + """
                    backend addrport
                        option tcp-check
                        tcp-check connect addr 127.0.0.1:%1$d
                        server s1 127.0.0.1:%2$d check inter 300ms
                    backend portwins
                        option tcp-check
                        tcp-check connect addr 127.0.0.1:%1$d port %2$d
                        server s1 127.0.0.1:%1$d check inter 300ms
                    """.formatted(ok.port(), refused);
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server addrport/s1 succeeded, reason: Layer4 check passed, ");
                p.awaitStderr("Health check for server portwins/s1 failed, reason: Layer4 connection problem, info: \"Connection refused at step 1 "
                        + "of tcp-check (connect port " + refused + ")\", check duration: ");
                assertThat(p.stderr()).doesNotContain("Health check for server addrport/s1 failed");
            }
        }
    }

    /** A connect followed by another is a whole connection the server accepts; only the last one is a bare probe. */
    @Test
    void connectThenConnect() throws Exception {
        try (Origin a = answering("A"); Origin b = answering("B")) {
            int fe = freePort();
            String cfg = CheckKit.config("", "tcp", fe, "twice") + """
                    backend twice
                        option tcp-check
                        tcp-check connect port %d
                        tcp-check connect port %d
                        server s1 127.0.0.1:%d check inter 300ms
                    """.formatted(a.port(), b.port(), FulcrumProcess.refusedPort());
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server twice/s1 succeeded, reason: Layer4 check passed, ");
                assertThat(a.accepted()).isPositive();
            }
        }
    }

    @Test
    void proxyHeadersOfChecks() throws Exception {
        List<String> v1 = new CopyOnWriteArrayList<>();
        List<String> v2 = new CopyOnWriteArrayList<>();
        List<String> tcpV1 = new CopyOnWriteArrayList<>();
        List<String> httpV2 = new CopyOnWriteArrayList<>();
        try (Origin a = recording(v1);
             Origin b = recording(v2);
             Origin c = recording(tcpV1);
             Origin d = recording(httpV2)) {
            int fe = freePort();
            String cfg = CheckKit.config("", "tcp", fe, "v1") + """
                    backend v1
                        server s1 127.0.0.1:%d check inter 300ms check-send-proxy
                    backend v2
                        server s1 127.0.0.1:%d check inter 300ms check-send-proxy send-proxy-v2
                    backend tcpv1
                        option tcp-check
                        tcp-check connect send-proxy
                        tcp-check send PING\\r\\n
                        server s1 127.0.0.1:%d check inter 300ms
                    backend httpv2
                        option httpchk
                        http-check connect send-proxy
                        server s1 127.0.0.1:%d check inter 300ms send-proxy-v2
                    """.formatted(a.port(), b.port(), c.port(), d.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                awaitOne(v1, p, "v1");
                awaitOne(v2, p, "v2");
                awaitOne(tcpV1, p, "tcpV1");
                awaitOne(httpV2, p, "httpV2");
                // v1 gives the check connection's own addresses, v2 a LOCAL command without any
                String local = "0d0a0d0a000d0a515549540a20000000 ";
                String tcp4 = "PROXY TCP4 127.0.0.1 127.0.0.1 SRC DST\r\n";
                assertThat(List.of(v1.get(0), v2.get(0), tcpV1.get(0), httpV2.get(0))).containsExactly(tcp4, local, tcp4, local);
            }
        }
    }

    private static void awaitOne(List<String> seen, FulcrumProcess p, String server) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (seen.isEmpty()) {
            assertThat(System.nanoTime()).as("no check arrived at " + server + "\n" + p.stderr()).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** A check server that records the PROXY header it receives: a v1 line as it is, a v2 header in hex. */
    private static Origin recording(List<String> seen) throws IOException {
        return Origin.start(s -> {
            seen.add(proxyHeader(s).replace(" " + s.getPort() + " " + s.getLocalPort() + "\r\n", " SRC DST\r\n")
                    .replace(String.format("%04x%04x", s.getPort(), s.getLocalPort()), "SRC.DST."));
            s.setSoTimeout(1000);
            try {
                s.getInputStream().read(new byte[4096]);
            } catch (IOException ignored) {
                // the check's request, if any, is not the test's concern
            }
            send(s, OK);
        });
    }

    private static String proxyHeader(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        int first = in.read();
        if (first == 'P') {
            StringBuilder b = new StringBuilder("P");
            int c;
            while (!b.toString().endsWith("\r\n") && (c = in.read()) >= 0 && b.length() < 200) {
                b.append((char) c);
            }
            return b.toString();
        }
        if (first < 0) {
            return "EOF";
        }
        byte[] head = new byte[16];
        head[0] = (byte) first;
        new DataInputStream(in).readFully(head, 1, 15);
        byte[] rest = new byte[((head[14] & 0xff) << 8) | (head[15] & 0xff)];
        new DataInputStream(in).readFully(rest);
        return HexFormat.of().formatHex(head) + " " + HexFormat.of().formatHex(rest);
    }
}
