package io.fulcrum.check;

import io.fulcrum.http.LoadedConfig;
import io.fulcrum.proxy.ProxyTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules a backend's checks run, as HAProxy 2.6.12 builds them from tcp-check and http-check lines and the check
 * options in any order (each expected list is what haproxy's checks sent to a capturing server, in order).
 */
class CheckRuleSetsTest {

    /** The rules of {@code backend} in a configuration made of {@code text}: "connect", "send <bytes>", "expect". */
    private static String rules(Path dir, String text, String backend) {
        LoadedConfig c = LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text);
        ProxyChecks checks = CheckModule.of(ProxyTable.of(c.model()).find(backend));
        return HealthChecks.rules(checks).stream().map(r -> switch (r) {
            case CheckRule.Connect x -> "connect";
            case CheckRule.HttpSend h -> "send " + new String(HttpCheck.request(h, null, null), StandardCharsets.ISO_8859_1);
            case CheckRule.Send s -> "send " + new String(s.data().bytes(null), StandardCharsets.ISO_8859_1);
            case CheckRule.Expect e -> "expect";
            default -> r.getClass().getSimpleName();
        }).collect(Collectors.joining(" | "));
    }

    /** The comment each rule of {@code backend} reports its failures with ("-" for none), comment rules left out. */
    private static String comments(Path dir, String text, String backend) {
        LoadedConfig c = LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text);
        ProxyChecks checks = CheckModule.of(ProxyTable.of(c.model()).find(backend));
        return HealthChecks.rules(checks).stream().map(r -> switch (r) {
            case CheckRule.Connect x -> "connect:" + x.comment();
            case CheckRule.HttpSend h -> "send:" + h.comment();
            case CheckRule.Send x -> "send:" + x.comment();
            case CheckRule.Expect e -> "expect:" + e.comment();
            default -> null;
        }).filter(java.util.Objects::nonNull).map(t -> t.replace(":null", ":-")).collect(Collectors.joining(" "));
    }

    /**
     * A comment rule's text goes to the rules after it until the kind of rule changes (HAProxy's check_proxy_tcpcheck()):
     * several sends or several expects in a row; a connect takes it and ends it, a set-var ends it, a rule's own comment
     * is its own without ending it; the nearest of two comment rules wins.
     */
    @Test
    void commentRulesReachTheRulesOfTheKindAfterThem(@TempDir Path dir) {
        assertThat(comments(dir, """
                backend b
                    option tcp-check
                    tcp-check comment c1
                    tcp-check send A
                    tcp-check send B comment own
                    tcp-check send C
                    tcp-check expect string A
                    tcp-check comment c2
                    tcp-check comment c3
                    tcp-check expect string B
                    tcp-check expect string C comment own
                    tcp-check expect string D
                    tcp-check set-var(check.x) str(a)
                    tcp-check expect string E
                """, "b")).isEqualTo("send:c1 send:own send:c1 expect:- expect:c3 expect:own expect:c3 expect:-");
        assertThat(comments(dir, """
                backend b
                    option tcp-check
                    tcp-check comment c1
                    tcp-check connect
                    tcp-check send A
                    tcp-check comment c2
                    tcp-check expect string A
                    tcp-check connect port 80
                """, "b")).isEqualTo("connect:c1 send:- expect:c2 connect:-");
        assertThat(comments(dir, """
                backend b
                    option httpchk
                    http-check comment c1
                    http-check connect
                    http-check send uri /
                    http-check comment c2
                    http-check expect status 200
                    http-check expect status 201
                    http-check connect port 80
                """, "b")).isEqualTo("connect:c1 send:- expect:c2 expect:c2 connect:-");
    }

    @Test
    void optionHttpchkAndHttpCheckSendMerge(@TempDir Path dir) {
        // the later one's method, URI, version, headers (when it has some) and body over the earlier one's
        assertThat(rules(dir, """
                backend b
                    http-check send hdr a 1 body B2
                    option httpchk GET /e2 HTTP/1.1\\r\\nb:\\ 2
                """, "b")).isEqualTo("send GET /e2 HTTP/1.1\r\nb: 2\r\ncontent-length: 2\r\nconnection: close\r\n\r\nB2");
        assertThat(rules(dir, """
                backend b
                    option httpchk GET /e3 HTTP/1.0\\r\\nb:\\ 2
                    http-check send hdr a 1
                """, "b")).isEqualTo("send GET /e3 HTTP/1.0\r\na: 1\r\n\r\n");
        // one word is the URI; a second option replaces the first's request, and merges into a written send
        assertThat(rules(dir, """
                backend b
                    http-check send uri /e7
                    option httpchk GET /e7a
                    option httpchk HEAD
                """, "b")).isEqualTo("send GET HEAD HTTP/1.0\r\n\r\n");
        assertThat(rules(dir, """
                backend b
                    option httpchk GET /e6
                    option httpchk HEAD /e6b
                """, "b")).isEqualTo("send HEAD /e6b HTTP/1.0\r\n\r\n");
    }

    /**
     * A connection header of the rules replaces HAProxy's {@code connection: close}; a Host header becomes an absolute
     * URI's authority (as haproxy 2.6.12 sent them).
     */
    @Test
    void connectionAndHostHeaders(@TempDir Path dir) {
        assertThat(rules(dir, """
                backend b
                    option httpchk
                    http-check send meth GET uri / ver HTTP/1.1 hdr host ws-host hdr connection upgrade hdr upgrade raw-proto
                """, "b")).isEqualTo("send GET / HTTP/1.1\r\nhost: ws-host\r\nconnection: upgrade\r\nupgrade: raw-proto\r\n\r\n");
        assertThat(rules(dir, """
                backend b
                    option httpchk
                    http-check send meth POST uri http://a/chk ver HTTP/1.1 hdr host a-much-longer-host-name.example.org body "hello"
                """, "b")).isEqualTo("send POST http://a-much-longer-host-name.example.org/chk HTTP/1.1\r\nhost: a-much-longer-host-name.example.org"
                + "\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello");
    }

    /** content-length and transfer-encoding given as headers are dropped; a second Host is refused. */
    @Test
    void headersASendDropsOrRefuses(@TempDir Path dir) {
        assertThat(rules(dir, """
                backend b
                    option httpchk
                    http-check send uri /a hdr content-length 5 hdr x y hdr Transfer-Encoding chunked
                """, "b")).isEqualTo("send OPTIONS /a HTTP/1.0\r\nx: y\r\n\r\n");
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                backend b
                    option httpchk
                    http-check send hdr host a hdr Host b
                """).messages()).contains("parsing [t.cfg:8] : 'http-check send' : 'Host' header already defined (previous value is 'a').");
    }

    @Test
    void theOptionsRequestTakesItsPlace(@TempDir Path dir) {
        // after a first connect written before it
        assertThat(rules(dir, """
                backend b
                    http-check connect
                    http-check expect status 200
                    option httpchk GET /e9
                """, "b")).isEqualTo("connect | send GET /e9 HTTP/1.0\r\n\r\n | expect");
        // first when the first rule is an expect, the send written later running after it
        assertThat(rules(dir, """
                backend b
                    http-check expect status 200
                    http-check send uri /dh
                    option httpchk GET
                """, "b")).isEqualTo("send OPTIONS GET HTTP/1.0\r\n\r\n | expect | send OPTIONS /dh HTTP/1.0\r\n\r\n");
    }

    @Test
    void aSectionsOwnRulesReplaceItsDefaults(@TempDir Path dir) {
        String text = """
                defaults
                    mode http
                    timeout connect 1s
                    option tcp-check
                    tcp-check send D3
                backend t3
                    tcp-check send B3
                backend t4
                    option tcp-check
                defaults
                    mode http
                    timeout connect 1s
                    option httpchk GET /d4
                backend h4
                    http-check expect status 200
                backend h10
                    http-check send uri /h10
                backend h7
                defaults
                    mode http
                    timeout connect 1s
                    tcp-check send D2
                    http-check send uri /d5
                backend t2
                    option tcp-check
                backend h5
                    option httpchk
                """;
        assertThat(rules(dir, text, "t3")).isEqualTo("send B3");
        assertThat(rules(dir, text, "t4")).isEqualTo("send D3");
        assertThat(rules(dir, text, "h4")).isEqualTo("expect"); // no request: haproxy sends none
        assertThat(rules(dir, text, "h10")).isEqualTo("send OPTIONS /h10 HTTP/1.0\r\n\r\n");
        assertThat(rules(dir, text, "h7")).isEqualTo("send GET /d4 HTTP/1.0\r\n\r\n");
        assertThat(rules(dir, text, "t2")).isEmpty();
        assertThat(rules(dir, text, "h5")).isEqualTo("send OPTIONS / HTTP/1.0\r\n\r\n");
    }

    @Test
    void rulesOfTheOtherKind(@TempDir Path dir) {
        String text = """
                backend m3
                    tcp-check send M3
                    option httpchk GET /m3
                backend m7
                    tcp-check send M7
                    option httpchk GET /m7
                    option tcp-check
                backend m8
                    http-check send uri /m8
                    option tcp-check
                    option httpchk
                backend m5
                    option tcp-check
                    http-check send uri /m5
                    tcp-check send M5
                """;
        assertThat(List.of(rules(dir, text, "m3"), rules(dir, text, "m7"), rules(dir, text, "m8"), rules(dir, text, "m5")))
                .containsExactly("send GET /m3 HTTP/1.0\r\n\r\n", "send M7", "send OPTIONS /m8 HTTP/1.0\r\n\r\n", "send M5");
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + text).messages())
                .doesNotContain("'m3'", "'m7'", "'m8'")
                .contains("config : backend 'm5' uses http-check rules without 'option httpchk', so the rules are ignored.");
    }
}
