package io.fulcrum.backend;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.sample.TestContext;
import io.fulcrum.sample.TestProxies;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerChanges;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Server choice by each algorithm, through {@link Backend#assign}, with slots held and given back. */
class BalanceTest {

    static Backend backend(String body) {
        TestProxies p = TestProxies.load("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 1s
                    timeout server 1s
                backend be
                """ + body.indent(4));
        return p.backends.get("be");
    }

    static TestContext request(Backend b, String uri) {
        TestContext ctx = new TestContext();
        ctx.backend = b;
        ctx.source = new InetSocketAddress("192.0.2.7", 4000);
        ctx.request = new RequestHead(new AsciiString("GET"), new AsciiString(uri), 11, new HttpHeaders());
        return ctx;
    }

    /** Takes a slot for a request to {@code uri} and gives it back at once; returns the server's name or the outcome. */
    static String pick(Backend b, TestContext ctx) {
        Ticket t = new Ticket(Runnable::run, s -> { });
        Backend.Outcome o = b.assign(ctx, t, null);
        if (o != Backend.Outcome.ASSIGNED) {
            t.release();
            return o.name();
        }
        String name = t.server().name();
        t.release();
        return name;
    }

    static Map<String, Integer> spread(Backend b, int n) {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge(pick(b, request(b, "/" + i)), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void roundRobinSpreadsTurnsByWeight() {
        Backend b = backend("""
                balance roundrobin
                server a 127.0.0.1:1 weight 5
                server b 127.0.0.1:2
                server c 127.0.0.1:3
                """);
        List<String> seq = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            seq.add(pick(b, request(b, "/")));
        }
        // haproxy 2.6's order, turn for turn
        assertThat(seq.subList(0, 7)).containsExactly("a", "a", "a", "b", "a", "a", "c");
        assertThat(seq.subList(7, 14)).isEqualTo(seq.subList(0, 7));
    }

    /** A roundrobin backend of servers a, b, c... with the weights {@code weights} (space-separated). */
    private static Backend roundRobin(String weights) {
        StringBuilder servers = new StringBuilder("balance roundrobin\n");
        String[] w = weights.trim().split(" ");
        for (int i = 0; i < w.length; i++) {
            servers.append("server ").append((char) ('a' + i)).append(" 127.0.0.1:").append(i + 1).append(" weight ").append(w[i]).append('\n');
        }
        return backend(servers.toString());
    }

    /** The servers of {@code n} picks in a row, as one letter each. */
    private static String turns(Backend b, int n) {
        StringBuilder seq = new StringBuilder();
        for (int i = 0; i < n; i++) {
            seq.append(pick(b, request(b, "/")));
        }
        return seq.toString();
    }

    /**
     * The turns of HAProxy's weighted round robin from a fresh start, as haproxy 2.6 gave them (recorded with 3 windows
     * of requests through the real haproxy, one server per weight): the same order, window after window.
     */
    @Test
    void roundRobinTakesHaproxysTurns() {
        Map<String, String> recorded = Map.of(
                "1 2", "bbabba",
                "1 3", "bbbabbba",
                "1 1 2", "cacbcacb",
                "2 3", "bbababbaba",
                "1 2 3 1 5", "ecebecaedcbeecebecaedcbe",
                "7 5 3", "abacbaabcabaabcabacbaabcabaabc");
        recorded.forEach((weights, turns) -> {
            Backend b = roundRobin(weights);
            assertThat(turns(b, turns.length())).as("weights %s", weights).isEqualTo(turns);
        });
    }

    @Test
    void roundRobinFollowsAWeightChangeAtRunTime() {
        Backend b = backend("""
                balance roundrobin
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                """);
        assertThat(spread(b, 10)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 5, "b", 5)));
        ServerChanges.weight(b.servers().get(0), 4);
        assertThat(spread(b, 10)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 8, "b", 2)));
        ServerChanges.disabled(b.servers().get(0), true);
        assertThat(spread(b, 4)).containsExactlyEntriesOf(Map.of("b", 4));
    }

    /**
     * Weight changes between turns carry HAProxy's windows over (lb_fwrr's fwrr_update_server_weight and status
     * down/up): the turns haproxy 2.6 took around {@code set weight} commands, recorded over real connections.
     * Each step is {@code turns} (that many picks) or {@code server=weight}.
     */
    @Test
    void roundRobinCarriesHaproxysTurnsOverWeightChanges() {
        Map<String, String> recorded = Map.of(
                "1 2 3", "cbca b=5 cbbcbacbbcbbcbacbbcbbcbacbbcbbcba",
                "1 1 1", "ab a=3 cabaacabaacabaacabaacabaa",
                "5 1 2", "aac a=1 bcabccabccabccabccab c=4 cccabccccabccccabcccc",
                "1 2 3 ", "cbcac c=0 bbbbabbab c=3 bcacbcbcacbcbcacbc",
                "2 3", "b b=7 abbbabbbbabbbabbbbabbbabbbb",
                "3 1", "aa a=2 b=3 babbababbababba",
                "1 2 3 1 5", "ecebeca e=2 dcbecbcedcbaecbcedcbaecbcedcba a=4 eacbacdeabcaeacbacdeabcaeacbac");
        recorded.forEach((weights, script) -> {
            Backend b = roundRobin(weights);
            StringBuilder seq = new StringBuilder();
            for (String step : script.split(" ")) {
                if (step.contains("=")) {
                    ServerChanges.weight(b.servers().get(step.charAt(0) - 'a'), Integer.parseInt(step.substring(2)));
                    seq.append(step).append(' ');
                    continue;
                }
                seq.append(turns(b, step.length())).append(' ');
            }
            assertThat(seq.toString().trim()).as("weights %s", weights).isEqualTo(script);
        });
    }

    @Test
    void staticRoundRobinUsesHaproxysMap() {
        Backend b = backend("""
                balance static-rr
                server a 127.0.0.1:1 weight 10
                server b 127.0.0.1:2 weight 20
                """);
        List<String> seq = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            seq.add(pick(b, request(b, "/")));
        }
        assertThat(seq).containsExactly("a", "b", "b", "a", "b", "b");
    }

    @Test
    void backupsOnlyWhenNoActiveServerIsUsable() {
        Backend b = backend("""
                server a 127.0.0.1:1
                server k1 127.0.0.1:2 backup
                server k2 127.0.0.1:3 backup
                """);
        assertThat(spread(b, 4)).containsExactlyEntriesOf(Map.of("a", 4));
        ServerChanges.disabled(b.servers().get(0), true);
        assertThat(spread(b, 4)).as("the first backup only").containsExactlyEntriesOf(Map.of("k1", 4));
        Backend all = backend("""
                option allbackups
                server a 127.0.0.1:1 disabled
                server k1 127.0.0.1:2 backup
                server k2 127.0.0.1:3 backup
                """);
        assertThat(spread(all, 4)).containsExactlyEntriesOf(new TreeMap<>(Map.of("k1", 2, "k2", 2)));
        assertThat(pick(backend("server a 127.0.0.1:1 disabled"), request(b, "/"))).isEqualTo("NO_SERVER");
    }

    @Test
    void leastConnTakesTheLeastLoadedForItsWeight() {
        Backend b = backend("""
                balance leastconn
                server a 127.0.0.1:1 weight 2
                server b 127.0.0.1:2
                """);
        List<Ticket> held = new ArrayList<>();
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < 9; i++) {
            Ticket t = new Ticket(Runnable::run, s -> { });
            assertThat(b.assign(request(b, "/"), t, null)).isEqualTo(Backend.Outcome.ASSIGNED);
            held.add(t);
            counts.merge(t.server().name(), 1, Integer::sum);
        }
        assertThat(counts).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 6, "b", 3)));
        held.forEach(Ticket::release);
        assertThat(b.servers()).allSatisfy(s -> assertThat(s.streams().current()).isZero());
    }

    @Test
    void firstFillsTheLowestIdThenTheNext() {
        Backend b = backend("""
                balance first
                server a 127.0.0.1:1 id 2 maxconn 2
                server b 127.0.0.1:2 id 1 maxconn 1
                """);
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Ticket t = new Ticket(Runnable::run, s -> { });
            b.assign(request(b, "/"), t, null);
            got.add(t.server().name());
        }
        assertThat(got).containsExactly("b", "a", "a");
        Ticket waiting = new Ticket(Runnable::run, s -> { });
        assertThat(b.assign(request(b, "/"), waiting, null)).isEqualTo(Backend.Outcome.QUEUED);
        assertThat(b.queued()).isEqualTo(1);
    }

    @Test
    void serverIdsFillTheGapsLeftByGivenOnes() {
        Backend b = backend("""
                server a 127.0.0.1:1
                server b 127.0.0.1:2 id 1
                server c 127.0.0.1:3
                """);
        assertThat(b.servers()).extracting(Server::numericId).containsExactly(2, 1, 4);
    }

    @Test
    void uriHashKeepsAUriOnOneServerAndHonoursLenAndDepth() {
        Backend b = backend("""
                balance uri depth 2
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                server c 127.0.0.1:3
                """);
        String first = pick(b, request(b, "/x/y/z?q=1"));
        for (String u : List.of("/x/y/other", "/x/y", "/x/y/z?q=2")) {
            assertThat(pick(b, request(b, u))).as(u).isEqualTo(first);
        }
        assertThat(spread(b, 300).keySet()).containsExactly("a", "b", "c");
    }

    @Test
    void consistentHashingMovesOnlyTheKeysOfAServerThatLeaves() {
        Backend b = backend("""
                balance uri
                hash-type consistent
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                server c 127.0.0.1:3
                server d 127.0.0.1:4
                """);
        Map<String, String> before = new TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            before.put("/k" + i, pick(b, request(b, "/k" + i)));
        }
        ServerChanges.disabled(b.servers().get(2), true);
        int moved = 0;
        for (Map.Entry<String, String> e : before.entrySet()) {
            String now = pick(b, request(b, e.getKey()));
            if (!e.getValue().equals("c")) {
                assertThat(now).as(e.getKey()).isEqualTo(e.getValue());
            } else {
                moved++;
                assertThat(now).isNotEqualTo("c");
            }
        }
        assertThat(moved).isBetween(300, 700);
    }

    @Test
    void urlParamAndHeaderHashesFallBackToTurnsWithoutAKey() {
        Backend b = backend("""
                balance url_param user
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                """);
        String u = pick(b, request(b, "/p?x=1&user=ann&z=2"));
        assertThat(pick(b, request(b, "/q?user=ann"))).isEqualTo(u);
        assertThat(spread(b, 10)).as("no parameter: in turn").containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 5, "b", 5)));
        Backend h = backend("""
                balance hdr(host) use_domain_only
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                server c 127.0.0.1:3
                """);
        TestContext one = request(h, "/");
        one.request.headers().add("Host", "www.example.com");
        TestContext two = request(h, "/");
        two.request.headers().add("host", "static.example.org");
        assertThat(pick(h, two)).isEqualTo(pick(h, one));
    }

    /** A POST's body is searched when its query string lacks the parameter; a value not starting as a token is no key. */
    @Test
    void urlParamInAPostBody() {
        Backend b = backend("""
                balance url_param user check_post
                server a 127.0.0.1:1
                server b 127.0.0.1:2
                server c 127.0.0.1:3
                """);
        String ann = pick(b, request(b, "/q?user=ann"));
        String bob = pick(b, request(b, "/q?user=bob"));
        assertThat(bob).isNotEqualTo(ann);
        for (int i = 0; i < 4; i++) {
            assertThat(pick(b, post(b, "/form", "x=1&user=ann"))).isEqualTo(ann);
            assertThat(pick(b, post(b, "/form?user=bob", "user=ann"))).as("the query string first").isEqualTo(bob);
        }
        for (String keyless : new String[] {"user= ann", "users=ann&xuser=ann"}) {
            java.util.Set<String> servers = new java.util.HashSet<>();
            for (int i = 0; i < 3; i++) {
                servers.add(pick(b, post(b, "/form", keyless)));
            }
            assertThat(servers).as(keyless + ": no key, in turn").hasSize(3);
        }
    }

    private static TestContext post(Backend b, String uri, String body) {
        TestContext ctx = request(b, uri);
        ctx.request.method(new AsciiString("POST"));
        ctx.requestBody = io.netty.buffer.Unpooled.wrappedBuffer(body.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return ctx;
    }

    @Test
    void randomDrawsUseEveryServer() {
        Backend b = backend("""
                balance random(3)
                server a 127.0.0.1:1
                server b 127.0.0.1:2 weight 3
                """);
        Map<String, Integer> s = spread(b, 400);
        assertThat(s.keySet()).containsExactly("a", "b");
    }
}
