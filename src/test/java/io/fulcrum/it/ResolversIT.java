package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.haproxy;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servers resolved at run time by a {@code resolvers} section: the traffic follows the addresses a DNS server (a stub of
 * the test) gives, the server goes to maintenance when its name stops resolving (NX, silence) and comes back when it
 * resolves again, with HAProxy's log lines; {@code show resolvers} counts; {@code do-resolve} in HTTP and TCP rules.
 * Holds for HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResolversIT extends WithDnsStub {
    private int port;

    @BeforeEach
    void start() throws Exception {
        port = freePort();
    }

    @Test
    void trafficFollowsTheNameAndMaintenanceFollowsItsFailures() throws Exception {
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"));
             Origin three = Origin.start("127.0.0.3", port, s -> send(s, "three"))) {
            dns.set("app.test", "127.0.0.2");
            try (FulcrumProcess p = serve(config("""
                        resolve_retries 2
                        hold nx 300ms
                        hold timeout 300ms
                        hold refused 300ms
                    """, "server s1 app.test:" + port + " resolvers dns init-addr none resolve-prefer ipv4", fe), fe)) {
                p.awaitStderr("be/s1 changed its IP from (none) to 127.0.0.2 by dns/ns1.");
                p.awaitStderr("Server be/s1 ('app.test') is UP/READY (resolves again).");
                p.awaitStderr("Server be/s1 administratively READY thanks to valid DNS answer.");
                assertThat(fetch(fe)).isEqualTo("two");
                assertThat(CliClient.send(cli, "show servers state be")).contains(" s1 127.0.0.2 2 0 1 1 ").contains(" app.test " + port + " ");

                dns.set("app.test", "127.0.0.3");
                p.awaitStderr("be/s1 changed its IP from 127.0.0.2 to 127.0.0.3 by dns/ns1.");
                assertThat(fetch(fe)).isEqualTo("three");

                dns.mode(DnsStub.Mode.NXDOMAIN);
                p.awaitStderr("Server be/s1 is going DOWN for maintenance (DNS NX status). 0 active and 0 backup servers left.");
                assertThat(fetch(fe)).isEmpty();
                assertThat(CliClient.send(cli, "show servers state be")).contains(" s1 - 0 32 1 1 ");

                dns.mode(DnsStub.Mode.ANSWER);
                p.awaitStderr("be/s1 changed its IP from (none) to 127.0.0.3 by dns/ns1.");
                awaitFetch(fe, "three");

                dns.mode(DnsStub.Mode.REFUSED);
                p.awaitStderr("Server be/s1 is going DOWN for maintenance (DNS refused status).");
                dns.mode(DnsStub.Mode.ANSWER);
                awaitLines(p, "Server be/s1 ('app.test') is UP/READY (resolves again).", 3); // at start, after NX, after REFUSED
                dns.mode(DnsStub.Mode.SILENT);
                p.awaitStderr("Server be/s1 is going DOWN for maintenance (DNS timeout status).");

                String show = CliClient.send(cli, "show resolvers dns");
                assertThat(show).startsWith("Resolvers section dns\n nameserver ns1:\n  sent:        ").contains("\n  snd_error:   0\n");
                assertThat(counter(show, "valid")).isPositive();
                assertThat(counter(show, "update")).isEqualTo(4); // from none, to .3, back after NX, back after REFUSED
                assertThat(counter(show, "nx")).isPositive();
                assertThat(counter(show, "refused")).isPositive();
                // HAProxy 2.6 never counts the timeouts it acts on (docs/differences.md).
                assertThat(counter(show, "timeout") > 0).isEqualTo(!haproxy());
                assertThat(show).endsWith("  outdated:    0\n\n");
                assertThat(CliClient.send(cli, "show resolvers nope")).isEqualTo("Can't find that resolvers section\n\n");
                assertThat(dns.questions()).contains("app.test A");

                // The counters are zeroed by clear counters all only (the DNS is silent now: update, nx and refused stay).
                assertThat(CliClient.send(cli, "clear counters")).isEqualTo("\n");
                assertThat(counter(CliClient.send(cli, "show resolvers dns"), "update")).isEqualTo(4);
                assertThat(CliClient.send(cli, "clear counters all")).isEqualTo("\n");
                String cleared = CliClient.send(cli, "show resolvers dns");
                assertThat(List.of(counter(cleared, "update"), counter(cleared, "nx"), counter(cleared, "refused"),
                        counter(cleared, "valid"))).containsOnly(0L);
            }
        }
    }

    /**
     * A name libc cannot resolve at start, with the default init-addr: as HAProxy, "none" ends the default methods of a
     * server with resolvers, so the proxy starts with the server in maintenance (resolution) until the DNS answers.
     */
    @Test
    void aNameLibcCannotResolveStartsInMaintenance() throws Exception {
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"))) {
            dns.mode(DnsStub.Mode.NXDOMAIN);
            try (FulcrumProcess p = serve(config("", "server s1 app.invalid:" + port + " resolvers dns resolve-prefer ipv4", fe), fe)) {
                p.awaitStderr("[WARNING]");
                assertThat(p.stderr()).containsPattern("\\[WARNING] +\\(\\d+\\) : config : \\[[^]]+:\\d+\\] : 'server be/s1' : could not "
                        + "resolve address 'app.invalid', disabling server.\n");
                assertThat(CliClient.send(cli, "show stat")).contains("\nbe,s1,").containsPattern("\nbe,s1,([^,\n]*,){15}MAINT \\(resolution\\),");
                assertThat(fetch(fe)).isEmpty();
                dns.set("app.invalid", "127.0.0.2");
                dns.mode(DnsStub.Mode.ANSWER);
                p.awaitStderr("be/s1 changed its IP from (none) to 127.0.0.2 by dns/ns1.");
                awaitFetch(fe, "two");
            }
        }
    }

    @Test
    void anAddressFromLibcIsReplacedAndIpv6IsPreferredByDefault() throws Exception {
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"))) {
            dns.set("localhost", "127.0.0.2");
            try (FulcrumProcess p = serve(config("", "server s1 localhost:" + port + " resolvers dns", fe), fe)) {
                // No AAAA record: the A one is taken after the fallback.
                p.awaitStderr("be/s1 changed its IP from 127.0.0.1 to 127.0.0.2 by dns/ns1.");
                awaitFetch(fe, "two");
                assertThat(dns.questions().getFirst()).isEqualTo("localhost AAAA");
                assertThat(p.stderr()).doesNotContain("maintenance");
            }
        }
    }

    @Test
    void anIpv6AddressIsTakenFirst() throws Exception {
        try (Origin six = Origin.start("::1", port, s -> send(s, "six"))) {
            dns.set("app.test", "127.0.0.2", "::1");
            try (FulcrumProcess p = serve(config("", "server s1 app.test:" + port + " resolvers dns init-addr none", fe), fe)) {
                p.awaitStderr("be/s1 changed its IP from (none) to ::1 by dns/ns1.");
                awaitFetch(fe, "six");
                assertThat(CliClient.send(cli, "show servers state be")).contains(" s1 ::1 2 0 ");
            }
        }
    }

    @Test
    void serversOfATemplateTakeDistinctAddresses() throws Exception {
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"));
             Origin three = Origin.start("127.0.0.3", port, s -> send(s, "three"))) {
            dns.set("app.test", "127.0.0.2", "127.0.0.3");
            try (FulcrumProcess p = serve(config("", "server-template s 3 app.test:" + port
                    + " resolvers dns init-addr none resolve-prefer ipv4", fe), fe)) {
                // One resolution for the three: the first server names the name server, the others the cache.
                p.awaitStderr("be/s1 changed its IP from (none) to 127.0.0.2 by dns/ns1.");
                p.awaitStderr("be/s2 changed its IP from (none) to 127.0.0.3 by DNS cache.");
                p.awaitStderr("Server be/s2 administratively READY thanks to valid DNS answer.");
                assertThat(java.util.Set.of(fetch(fe), fetch(fe))).containsExactlyInAnyOrder("two", "three");
                String state = CliClient.send(cli, "show servers state be");
                assertThat(state).contains(" s1 127.0.0.2 2 0 ").contains(" s2 127.0.0.3 2 0 ").contains(" s3 - 0 32 ");

                dns.set("app.test", "127.0.0.2");
                p.awaitStderr("Server be/s2 is going DOWN for maintenance (No IP for server ). 1 active and 0 backup servers left.");
                awaitFetch(fe, "two");
                assertThat(fetch(fe)).isEqualTo("two");
                assertThat(p.stderr()).doesNotContain("be/s3 changed");
            }
        }
    }

    /**
     * {@code set server fqdn}: a server of a resolvers section resolves the new name from then on (its address and the
     * traffic follow at the next answer); haproxy's answers to a server without a section, one filled by an SRV record,
     * and names it does not take.
     */
    @Test
    void setServerFqdnResolvesTheNewName() throws Exception {
        try (Origin two = Origin.start("127.0.0.2", port, s -> send(s, "two"));
             Origin three = Origin.start("127.0.0.3", port, s -> send(s, "three"))) {
            dns.set("app.test", "127.0.0.2");
            dns.set("other.test", "127.0.0.3");
            try (FulcrumProcess p = serve(config("", """
                    server s1 app.test:%d resolvers dns init-addr none resolve-prefer ipv4
                    server s2 127.0.0.1:%1$d disabled
                    server-template t 1 _app._tcp.app.test resolvers dns init-addr none""".formatted(port), fe), fe)) {
                p.awaitStderr("be/s1 changed its IP from (none) to 127.0.0.2 by dns/ns1.");
                awaitFetch(fe, "two");
                assertThat(CliClient.send(cli, "set server be/s1 fqdn other.test"))
                        .isEqualTo("be/s1 changed its FQDN from app.test to other.test by 'stats socket command'\n\n");
                p.awaitStderr("be/s1 changed its IP from 127.0.0.2 to 127.0.0.3 by dns/ns1.");
                awaitFetch(fe, "three");
                assertThat(CliClient.send(cli, "show servers state be")).contains(" s1 127.0.0.3 2 0 ").contains(" other.test " + port + " ");
                assertThat(CliClient.send(cli, "set server be/s1 fqdn other.test;set server be/s1 fqdn a..b;set server be/s1 fqdn a*b;"
                        + "set server be/s1 fqdn;set server be/s2 fqdn x.test;set server be/t1 fqdn x.test")).isEqualTo("""
                        no need to change the FDQN by 'stats socket command'

                        could not update be/s1 FQDN by 'stats socket command'

                        invalid fqdn 'a*b' by 'stats socket command'

                        set server <b>/<s> fqdn requires a FQDN.

                        set server <b>/<s> fqdn failed because no resolution is configured.

                        set server <b>/<s> fqdn failed because SRV resolution is configured.

                        """);
                assertThat(fetch(fe)).isEqualTo("three");
            }
        }
    }

    @Test
    void doResolveStoresTheAddressInAVariable() throws Exception {
        dns.set("app.test", "127.0.0.5");
        dns.set("six.test", "::5");
        try (FulcrumProcess p = serve("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                resolvers dns
                    nameserver ns1 127.0.0.1:%d
                    timeout retry 200ms
                    resolve_retries 1
                frontend fe
                    bind 127.0.0.1:%d
                    http-request do-resolve(txn.ip,dns,ipv4) hdr(host),lower if { path /v4 }
                    http-request do-resolve(txn.ip,dns,ipv6) hdr(host),lower if { path /v6 }
                    http-request return status 200 content-type text/plain lf-string "ip=%%[var(txn.ip)]"
                """.formatted(dns.port(), fe), fe)) {
            assertThat(get(fe, "APP.test", "/v4")).endsWith("ip=127.0.0.5");
            assertThat(get(fe, "six.test", "/v6")).endsWith("ip=::5");
            assertThat(get(fe, "nx.test", "/v4")).endsWith("ip=");
            dns.set("app.test", "127.0.0.6");
            assertThat(get(fe, "app.test", "/v4")).endsWith("ip=127.0.0.6"); // each request asks again
            dns.mode(DnsStub.Mode.SILENT);
            assertThat(get(fe, "app.test", "/v4")).endsWith("ip="); // no answer at all
        }
    }

    @Test
    void tcpContentDoResolveWaitsWithinTheInspectDelay() throws Exception {
        dns.set("app.test", "127.0.0.5");
        int yes = freePort();
        int no = freePort();
        int noDelay = freePort();
        try (Origin y = Origin.start(yes, s -> send(s, "yes"));
             Origin n = Origin.start(no, s -> send(s, "no"));
             FulcrumProcess p = serve("""
                     defaults
                         mode tcp
                         timeout connect 1s
                         timeout client 5s
                         timeout server 5s
                     resolvers dns
                         nameserver ns1 127.0.0.1:%d
                         timeout retry 3s
                         resolve_retries 1
                     frontend fe
                         bind 127.0.0.1:%d
                         tcp-request inspect-delay 1s
                         tcp-request content do-resolve(sess.ip,dns,ipv4) str(app.test)
                         use_backend yes if { var(sess.ip) -m ip 127.0.0.5 }
                         default_backend no
                     frontend nodelay
                         bind 127.0.0.1:%d
                         tcp-request content do-resolve(sess.ip,dns,ipv4) str(other.test)
                         use_backend yes if { var(sess.ip) -m found }
                         default_backend no
                     backend yes
                         server s1 127.0.0.1:%d
                     backend no
                         server s1 127.0.0.1:%d
                     """.formatted(dns.port(), fe, noDelay, yes, no), fe)) {
                assertThat(answer(fe)).isEqualTo("yes");
                // Without an inspect delay the rules' only evaluation is the last one: nothing is asked.
                dns.set("other.test", "127.0.0.6");
                assertThat(answer(noDelay)).isEqualTo("no");
                assertThat(dns.questions()).containsExactly("app.test A");
                // No answer within the inspect delay (the query waits 3 s): the rules go on without the variable.
                dns.mode(DnsStub.Mode.SILENT);
                long start = System.nanoTime();
                assertThat(answer(fe)).isEqualTo("no");
                assertThat(System.nanoTime() - start).isBetween(900_000_000L, 2_500_000_000L);
        }
    }

    /** What the server behind {@code port} says, waiting for it (the rules may wait for an answer first). */
    private static String answer(int port) throws Exception {
        try (Socket s = connect(port)) {
            return readToEof(s, 5000);
        }
    }

    private static String get(int fe, String host, String path) throws Exception {
        try (Socket s = connect(fe)) {
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return readToEof(s, 5000);
        }
    }

    /** A TCP frontend on {@code fe} to a round-robin backend of {@code server}, resolved by {@code dns} every 200 ms. */
    private String config(String resolvers, String server, int fe) {
        return """
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                resolvers dns
                    nameserver ns1 127.0.0.1:%d
                    timeout resolve 200ms
                    timeout retry 200ms
                %s
                backend be
                    balance roundrobin
                    %s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, dns.port(), resolvers.stripTrailing(), server, fe);
    }

    /** Waits until stderr holds {@code text} {@code times} times (60 s at most). */
    private static void awaitLines(FulcrumProcess p, String text, int times) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (p.stderr().split(java.util.regex.Pattern.quote(text), -1).length - 1 < times) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + times + " times: " + text + "\nstderr:\n" + p.stderr());
            }
            Thread.sleep(50);
        }
    }

    private static long counter(String show, String name) {
        for (String line : show.lines().toList()) {
            if (line.startsWith("  " + name + ":")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new AssertionError("no counter " + name + " in " + show);
    }
}
