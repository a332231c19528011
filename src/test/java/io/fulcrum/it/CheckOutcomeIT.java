package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ends a check's rules, as haproxy 2.6 decides it: {@code http-check disable-on-404} with {@code http-check expect}
 * rules (a 404 lets them through and the server drains, unless it is down), the {@code ok-status} of the last expect
 * (not of an earlier one), "(tcp-check)" when a send or a written connect ends the rules, the HTTP fetches of the
 * check's response in {@code on-success}/{@code on-error}, and the info of a negated expect that failed. The log lines
 * and {@code show stat}. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CheckOutcomeIT {

    private static Origin answering(String response) throws Exception {
        return Origin.start(s -> {
            s.getInputStream().read(new byte[4096]);
            send(s, response);
        });
    }

    @Test
    void whatTheLastStepSays() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        try (Origin notFound = answering("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
             Origin ok = answering("HTTP/1.1 200 OK\r\nX-A: aa\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
             Origin failing = answering("HTTP/1.1 503 Service Unavailable\r\nX-A: aa\r\nSet-Cookie: k=v1\r\nContent-Length: 4\r\n"
                     + "Connection: close\r\n\r\nbody");
             Origin bad = answering("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbad")) {
            int fe = freePort();
            String server = "    server s1 127.0.0.1:%d check inter 500ms\n";
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "http", fe, "d404") + """
                    backend d404
                        option httpchk
                        http-check disable-on-404
                        http-check expect status 200 on-success "not said"
                        http-check expect string ok
                    """ + server.formatted(notFound.port()) + """
                    backend d404down
                        option httpchk
                        http-check disable-on-404
                        http-check expect status 200
                        server s1 127.0.0.1:%d check inter 500ms rise 1 fall 1
                    backend okc
                        option httpchk
                        http-check expect status 200 ok-status L7OKC on-success "okc %%[status]"
                    """.formatted(notFound.port()) + server.formatted(ok.port()) + """
                    backend okcfirst
                        option httpchk
                        http-check expect status 200 ok-status L7OKC
                        http-check expect string ok
                    """ + server.formatted(ok.port()) + """
                    backend l4
                        option httpchk
                        http-check expect status 200 ok-status L4OK
                    """ + server.formatted(ok.port()) + """
                    backend fetches
                        option httpchk
                        http-check expect status 200 on-error "st=%[status] h=%[res.hdr(x-a)] v=%[res.ver] b=%[res.body] l=%[res.body_len] c=%[res.cook(k)] hc=%[res.hdr_cnt]"
                    """ + server.formatted(failing.port()) + """
                    backend fetchok
                        option httpchk
                        http-check expect status 200 on-success "st=%[status] h=%[hdr(x-a)] sh=%[shdr(x-a)]"
                    """ + server.formatted(ok.port()) + """
                    backend negstr
                        option httpchk
                        http-check expect ! string bad
                    """ + server.formatted(bad.port()) + """
                    backend negre
                        option httpchk
                        http-check expect ! rstring ba.
                    """ + server.formatted(bad.port()) + """
                    backend negst
                        option httpchk
                        http-check expect ! status 200
                    """ + server.formatted(bad.port()) + """
                    backend tcpsendlast
                        option tcp-check
                        tcp-check send "hi\\r\\n"
                        tcp-check expect string HTTP ok-status L7OKC
                        tcp-check send "bye\\r\\n"
                    """ + server.formatted(ok.port()) + """
                    backend tcpokc
                        option tcp-check
                        tcp-check send "hi\\r\\n"
                        tcp-check expect string HTTP ok-status L7OKC
                    """ + server.formatted(ok.port()) + """
                    backend tcpconnect
                        option tcp-check
                        tcp-check connect
                    """ + server.formatted(ok.port());
            try (FulcrumProcess p = serve(cfg, fe)) {
                String cond = "Health check for server %s/s1 conditionally succeeded, reason: Layer7 check conditionally passed, code: %s, ";
                String ok7 = "Health check for server %s/s1 succeeded, reason: Layer7 check passed, code: %s";
                String failed = "Health check for server %s/s1 failed, reason: %s, info: \"%s\", check duration: ";
                p.awaitStderr(cond.formatted("d404", 404) + "check duration: ");
                p.awaitStderr("Server d404/s1 is stopping.");
                p.awaitStderr(cond.formatted("okc", 200) + "info: \"okc 200\", check duration: ");
                p.awaitStderr("Server okc/s1 is stopping.");
                p.awaitStderr(ok7.formatted("okcfirst", 200) + ", check duration: ");
                p.awaitStderr("Health check for server l4/s1 succeeded, reason: Layer4 check passed, check duration: ");
                p.awaitStderr(failed.formatted("fetches", "Layer7 wrong status, code: 503", "st=503 h=aa v=1.1 b=body l=4 c=v1 hc=3"));
                p.awaitStderr(ok7.formatted("fetchok", 200) + ", info: \"st=200 h=aa sh=aa\", check duration: ");
                p.awaitStderr(failed.formatted("negstr", "Layer7 invalid response", "HTTP check matched unwanted content"));
                p.awaitStderr(failed.formatted("negre", "Layer7 invalid response", "HTTP check matched unwanted content"));
                p.awaitStderr(failed.formatted("negst", "Layer7 wrong status, code: 200", "OK"));
                p.awaitStderr(ok7.formatted("tcpsendlast", 0) + ", info: \"(tcp-check)\", check duration: ");
                p.awaitStderr(cond.formatted("tcpokc", 0) + "info: \"(tcp-check)\", check duration: ");
                p.awaitStderr("Health check for server tcpconnect/s1 succeeded, reason: Layer4 check passed, info: \"(tcp-check)\", check duration: ");

                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                assertThat(rows.get("d404/s1")).containsEntry("status", "NOLB").containsEntry("check_code", "404");
                assertThat(rows.get("okc/s1")).containsEntry("status", "NOLB");
                assertThat(rows.get("l4/s1")).containsEntry("status", "UP");
                assertThat(StatsIT.lastCheck(rows.get("d404/s1"))).isEqualTo("L7OKC");
                assertThat(StatsIT.lastCheck(rows.get("okc/s1"))).isEqualTo("L7OKC");
                assertThat(StatsIT.lastCheck(rows.get("l4/s1"))).isEqualTo("L4OK");

                // A down server's 404 is no drain: the expect judges it.
                CliClient.send(cli, "set server d404down/s1 health down");
                p.awaitStderr("Health check for server d404down/s1 failed, reason: Layer7 wrong status, code: 404, info: \"Not Found\", "
                        + "check duration: ");
                assertThat(p.stderr()).doesNotContain("not said");
            }
        }
    }

    /**
     * A response head the server cut by closing is an invalid response, a status line alone too; a protocol check's
     * judge gives its words to the log line as the status changes, and its success keeps none (show stat's last_chk);
     * a backend running on its backups weighs the first one, or all of them with allbackups.
     */
    @Test
    void cutHeadsProtocolSuccessesAndBackupWeights() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        try (Origin cut = answering("HTTP/1.1 200 OK\r\nContent-Le");
             Origin line = answering("HTTP/1.1 200 OK\r\n");
             Origin ldap = Origin.start(s -> {
                 s.getInputStream().read(new byte[64]);
                 s.getOutputStream().write(HexFormat.of().parseHex("300c02010161070a010004000400"));
             })) {
            int fe = freePort();
            int dead = freePort();
            String server = "    server s1 127.0.0.1:%d check inter 300ms\n";
            String backups = """
                        server s1 127.0.0.1:%d check inter 300ms rise 1 fall 1 weight 5
                        server b1 127.0.0.1:%d backup weight 7
                        server b2 127.0.0.1:%2$d backup weight 9
                    """.formatted(dead, line.port());
            String cfg = CheckKit.config("stats socket " + cli + " level admin", "http", fe, "cut") + """
                    backend cut
                        option httpchk
                    """ + server.formatted(cut.port()) + """
                    backend line
                        option httpchk
                    """ + server.formatted(line.port()) + """
                    backend ldap
                        option ldap-check
                    """ + server.formatted(ldap.port()) + "backend bk\n" + backups + "backend bkall\n    option allbackups\n" + backups;
            try (FulcrumProcess p = serve(cfg, fe)) {
                p.awaitStderr("Health check for server cut/s1 failed, reason: Layer7 invalid response, check duration: ");
                p.awaitStderr("Health check for server line/s1 failed, reason: Layer7 invalid response, check duration: ");
                p.awaitStderr("Health check for server ldap/s1 succeeded, reason: Layer7 check passed, code: 0, info: \"Success\", check duration: ");
                p.awaitStderr("Server bk/s1 is DOWN.");
                p.awaitStderr("Server bkall/s1 is DOWN.");
                Map<String, Map<String, String>> rows = StatsIT.rows(CliClient.send(cli, "show stat"));
                assertThat(rows.get("ldap/s1")).containsEntry("last_chk", "").containsEntry("status", "UP");
                assertThat(rows.get("bk/BACKEND")).containsEntry("weight", "7").containsEntry("uweight", "7").containsEntry("bck", "2");
                assertThat(rows.get("bkall/BACKEND")).containsEntry("weight", "16").containsEntry("uweight", "16");
            }
        }
    }
}
