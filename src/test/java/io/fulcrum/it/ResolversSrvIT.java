package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SRV records filling a {@code server-template} (targets, ports, weights scaled to 0-256 or kept by {@code resolve-opts
 * ignore-weight}, addresses from the additional records or from a resolution of each target, records that disappear
 * and come back), and name servers reached over TCP ({@code tcp@}, 4 queries in flight per connection,
 * {@code maxconn}). Which template slot a target takes is HAProxy's hash order, so the tests find the slot from the
 * log. Holds for HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResolversSrvIT extends WithDnsStub {
    private static final String SRV = "_http._tcp.app.test";

    @Test
    void targetsFillTheTemplateAndGoneOnesFreeTheirServer() throws Exception {
        int p2 = freePort();
        int p3 = freePort();
        int p4 = freePort();
        try (Origin two = Origin.start("127.0.0.2", p2, s -> send(s, "two"));
             Origin three = Origin.start("127.0.0.3", p3, s -> send(s, "three"));
             Origin four = Origin.start("127.0.0.4", p4, s -> send(s, "four"))) {
            dns.set("a.app.test", "127.0.0.2");
            dns.set("b.app.test", "127.0.0.3");
            dns.set("c.app.test", "127.0.0.4");
            dns.srv(SRV, new DnsStub.Srv(0, 10, p2, "a.app.test"), new DnsStub.Srv(0, 1000, p3, "b.app.test"));
            try (FulcrumProcess p = serve(config("127.0.0.1", "", "", "resolve-prefer ipv4"), fe)) {
                // No additional record: each target is resolved on its own.
                String a = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.2 by dns/ns1.");
                String b = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.3 by dns/ns1.");
                p.awaitStderr("Server be/" + a + " ('a.app.test') is UP/READY (resolves again).");
                p.awaitStderr("Server be/" + b + " administratively READY thanks to valid DNS answer.");
                String state = CliClient.send(cli, "show servers state be");
                // Weights 10 and 1000 of 65535 become 1 and 4 of 256.
                assertThat(state).contains(" " + a + " 127.0.0.2 2 64 1 1 ").contains(" a.app.test " + p2 + " " + SRV + " ")
                        .contains(" " + b + " 127.0.0.3 2 64 4 1 ").contains(" b.app.test " + p3 + " " + SRV + " ")
                        .containsPattern(" s\\d - 0 32 1 1 .* - 0 " + SRV + " ");
                assertThat(CliClient.send(cli, "show stat")).contains("127.0.0.2:" + p2).contains("127.0.0.3:" + p3)
                        .contains(",MAINT (resolution),");
                assertThat(new HashSet<>(List.of(fetch(fe), fetch(fe), fetch(fe), fetch(fe), fetch(fe)))).containsExactlyInAnyOrder("two", "three");
                assertThat(dns.questions()).contains(SRV + " SRV", "a.app.test A");

                // b goes, c (weight 0) comes: c takes the free server, b's one goes to maintenance.
                dns.srv(SRV, new DnsStub.Srv(0, 10, p2, "a.app.test"), new DnsStub.Srv(0, 0, p4, "c.app.test"));
                String c = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.4 by dns/ns1.");
                p.awaitStderr("Server be/" + b + " is going DOWN for maintenance (entry removed from SRV record). 1 active and 0 backup servers left.");
                assertThat(c).isNotIn(a, b);
                state = CliClient.send(cli, "show servers state be");
                assertThat(state).contains(" " + b + " - 0 96 4 1 ").contains(" " + c + " 127.0.0.4 2 64 0 1 ")
                        .contains(" c.app.test " + p4 + " " + SRV + " ");
                assertThat(fetch(fe)).isEqualTo("two"); // c has weight 0

                // b again: it takes the server it left.
                dns.srv(SRV, new DnsStub.Srv(0, 10, p2, "a.app.test"), new DnsStub.Srv(0, 512, p4, "c.app.test"),
                        new DnsStub.Srv(0, 256, p3, "b.app.test"));
                slot(p, "be/(" + b + ") changed its IP from \\(none\\) to 127.0.0.3 by dns/ns1.");
                awaitState(" " + c + " 127.0.0.4 2 64 2 1 ");
            }
        }
    }

    @Test
    void additionalRecordsGiveTheAddressesAndAnNxNameEmptiesTheTemplate() throws Exception {
        int p2 = freePort();
        try (Origin two = Origin.start("127.0.0.2", p2, s -> send(s, "two"))) {
            dns.set("a.app.test", "127.0.0.2");
            dns.set("b.app.test", "127.0.0.3");
            dns.additional(true);
            dns.srv(SRV, new DnsStub.Srv(0, 10, p2, "a.app.test"), new DnsStub.Srv(0, 10, p2, "b.app.test"));
            try (FulcrumProcess p = serve(config("127.0.0.1", "", "hold nx 300ms", "resolve-opts ignore-weight weight 7"), fe)) {
                String a = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.2 by DNS additional record.");
                String b = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.3 by DNS additional record.");
                p.awaitStderr("Server be/" + a + " ('a.app.test') is UP/READY (resolves again).");
                awaitState(" " + a + " 127.0.0.2 2 64 7 7 ");
                assertThat(CliClient.send(cli, "show servers state be")).contains(" " + b + " 127.0.0.3 2 64 7 7 ");
                assertThat(dns.questions()).allMatch(q -> q.equals(SRV + " SRV"));
                assertThat(p.stderr()).doesNotContain("administratively READY");

                dns.mode(DnsStub.Mode.NXDOMAIN);
                p.awaitStderr("Server be/" + a + " is going DOWN for maintenance (entry removed from SRV record).");
                p.awaitStderr("Server be/" + b + " is going DOWN for maintenance (entry removed from SRV record).");
                awaitState(" " + a + " - 0 96 7 7 ");
                dns.mode(DnsStub.Mode.ANSWER);
                awaitState(" 127.0.0.2 2 64 7 7 "); // in the first free server, which may be another one
                awaitFetch(fe, "two");
            }
        }
    }

    @Test
    void aStaticAlgorithmTakesOnlyZeroOrTheInitialWeight() throws Exception {
        dns.set("a.app.test", "127.0.0.2");
        dns.set("b.app.test", "127.0.0.3");
        dns.additional(true);
        dns.srv(SRV, new DnsStub.Srv(0, 1000, 8001, "a.app.test"), new DnsStub.Srv(0, 0, 8002, "b.app.test"));
        // As "set weight": a static algorithm refuses weight 4 (a keeps 1), takes 0 (b).
        try (FulcrumProcess p = serve(config("127.0.0.1", "", "", "").replace("balance roundrobin", "balance static-rr"), fe)) {
            String a = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.2 by DNS additional record.");
            String b = slot(p, "be/(s\\d) changed its IP from \\(none\\) to 127.0.0.3 by DNS additional record.");
            awaitState(" " + b + " 127.0.0.3 2 64 0 1 ");
            assertThat(CliClient.send(cli, "show servers state be")).contains(" " + a + " 127.0.0.2 2 64 1 1 ");
        }
    }

    @Test
    void aTcpNameserverCarriesTheQueriesOnOneConnection() throws Exception {
        int port = freePort();
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"))) {
            StringBuilder servers = new StringBuilder();
            for (int i = 1; i <= 6; i++) {
                dns.set("n" + i + ".app.test", "127.0.0.2");
                servers.append("    server s").append(i).append(" n").append(i).append(".app.test:").append(port)
                        .append(" resolvers dns init-addr none resolve-prefer ipv4\n");
            }
            // Six names resolved together: more than the 4 queries one connection carries at once, but maxconn 1.
            try (FulcrumProcess p = serve(config("tcp@127.0.0.1", " maxconn 1", "", servers.toString().strip()), fe)) {
                for (int i = 1; i <= 6; i++) {
                    p.awaitStderr("be/s" + i + " changed its IP from (none) to 127.0.0.2 by dns/ns1.");
                }
                awaitFetch(fe, "two");
                dns.set("n1.app.test", "127.0.0.3");
                p.awaitStderr("be/s1 changed its IP from 127.0.0.2 to 127.0.0.3 by dns/ns1.");
                assertThat(dns.tcpConnections()).isEqualTo(1);
                assertThat(dns.tcpMaxOpen()).isEqualTo(1);
                assertThat(dns.questions()).contains("n6.app.test A");
            }
        }
    }

    @Test
    void aTcpConnectionCarriesFourQueriesAtOnce() throws Exception {
        StringBuilder servers = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            dns.set("n" + i + ".app.test", "127.0.0.2");
            servers.append("    server s").append(i).append(" n").append(i).append(".app.test:80")
                    .append(" resolvers dns init-addr none resolve-prefer ipv4\n");
        }
        // Ten names asked together at start: three connections (4 + 4 + 2), kept for the next rounds.
        try (FulcrumProcess p = serve(config("tcp@127.0.0.1", "", "", servers.toString().strip()), fe)) {
            for (int i = 1; i <= 10; i++) {
                p.awaitStderr("be/s" + i + " changed its IP from (none) to 127.0.0.2 by dns/ns1.");
            }
            dns.set("n1.app.test", "127.0.0.3");
            p.awaitStderr("be/s1 changed its IP from 127.0.0.2 to 127.0.0.3 by dns/ns1.");
            assertThat(dns.tcpMaxOpen()).isEqualTo(3);
        }
    }

    /**
     * A TCP frontend on a round-robin backend whose servers use the name server {@code address} of the stub (followed by
     * {@code params}) every 200 ms, {@code more} in the resolvers section: a 3-server template on the SRV name with
     * {@code options}, or {@code options} as the server lines when they start with "server".
     */
    private String config(String address, String params, String more, String options) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                resolvers dns
                    nameserver ns1 %s:%d%s
                    timeout resolve 200ms
                    timeout retry 200ms
                    hold obsolete 300ms
                    %s
                backend be
                    balance roundrobin
                    %s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, address, dns.port(), params, more,
                options.startsWith("server") ? options : "server-template s 3 " + SRV + " resolvers dns init-addr none " + options, fe);
    }

    /** Waits for a log line matching {@code regex} and gives its first group (the server). */
    private static String slot(FulcrumProcess p, String regex) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            Matcher m = pattern.matcher(p.stderr());
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out waiting for " + regex + "\nstderr:\n" + p.stderr());
    }

    private void awaitState(String text) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        String state = CliClient.send(cli, "show servers state be");
        while (!state.contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            state = CliClient.send(cli, "show servers state be");
        }
        assertThat(state).contains(text);
    }
}
