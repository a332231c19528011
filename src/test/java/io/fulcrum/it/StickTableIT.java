package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stick tables driven by real clients: a request rate limit, counters tracked per connection, the sc_/src_ fetches and
 * table_ converters, and the table commands of the CLI. Expected outputs are haproxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StickTableIT {
    private static Path admin;
    private static int limit;
    private static int counters;
    private static int tcp;
    private static HttpOrigin app;
    private static Origin echo;
    private static FulcrumProcess proxy;

    @BeforeAll
    static void start() throws Exception {
        admin = Files.createTempDirectory("fulcrum-sticks").resolve("admin.sock");
        app = HttpOrigin.ok("app");
        limit = freePort();
        counters = freePort();
        tcp = freePort();
        echo = Origin.start(Origin.ECHO);
        proxy = TcpProxyKit.serve("""
                global
                    stats socket %s level admin
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend limit
                    bind 127.0.0.1:%d
                    stick-table type ip size 100 expire 30s store http_req_rate(10s),http_req_cnt,http_err_cnt,conn_cnt,conn_cur,gpc0,bytes_in_cnt,bytes_out_cnt
                    http-request track-sc0 src
                    http-request deny if { sc_http_req_rate(0) gt 5 }
                    default_backend app
                frontend counters
                    bind 127.0.0.1:%d
                    tcp-request connection track-sc1 src table conns
                    http-request sc-inc-gpc0(1)
                    http-request return status 200 content-type text/plain lf-string "gpc0=%%[sc1_get_gpc0] cur=%%[sc1_conn_cur] src=%%[src_get_gpc0(conns)] tab=%%[src,table_gpc0(conns)] in=%%[src,in_table(conns)] tracked=%%[sc1_tracked],%%[sc0_tracked] trackers=%%[sc_trackers(1)] req=%%[sc_http_req_cnt(1)] cnt=%%[table_cnt(conns)] avl=%%[table_avl(conns)]"
                backend conns
                    stick-table type ip size 10 expire 1s store gpc0,conn_cur,conn_cnt,sess_cnt,http_req_cnt
                frontend tcp_limit
                    mode tcp
                    bind 127.0.0.1:%d
                    stick-table type ip size 10 store conn_cur,conn_cnt,sess_cnt,bytes_in_cnt,bytes_out_cnt
                    tcp-request connection track-sc0 src
                    tcp-request connection reject if { sc0_conn_cur gt 2 }
                    default_backend echo
                backend echo
                    mode tcp
                    server e 127.0.0.1:%d
                backend cli
                    stick-table type ip size 10 store gpc0,conn_cnt
                backend app
                    server s1 127.0.0.1:%d
                backend by_ip
                    stick-table type ip size 10 store gpc0
                backend by_ipv6
                    stick-table type ipv6 size 10 store gpc0
                backend by_int
                    stick-table type integer size 10 store gpc0
                backend by_str
                    stick-table type string size 10 store gpc0
                """.formatted(admin, limit, counters, tcp, echo.port(), app.port()), limit);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        app.close();
        echo.close();
    }

    private static String cli(String line) throws Exception {
        return CliClient.send(admin, line);
    }

    /** {@code show table}'s lines with the entries' addresses and expiry dates masked. */
    private static String show(String table) throws Exception {
        return cli("show table " + table).replaceAll("(?m)^0x[0-9a-f]+:", "0x:").replaceAll(" exp=\\d+", " exp=E");
    }

    private static String get(HttpClientConn c) throws Exception {
        HttpClientConn.Response r = c.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        return r.status() == 200 ? r.bodyText() : String.valueOf(r.status());
    }

    @Test
    void theSixthRequestWithinTheRatePeriodIsDenied() throws Exception {
        try (HttpClientConn c = HttpClientConn.open(limit)) {
            for (int i = 0; i < 5; i++) {
                assertThat(get(c)).isEqualTo("app");
            }
            assertThat(get(c)).isEqualTo("403");
        }
        String table = show("limit");
        assertThat(table).startsWith("# table: limit, type: ip, size:100, used:1\n0x: key=127.0.0.1 use=0 exp=E gpc0=0 conn_cnt=6 conn_cur=0 "
                + "http_req_cnt=6 http_req_rate(10000)=6 http_err_cnt=1 bytes_in_cnt=");
        long in = Long.parseLong(table.replaceAll("(?s).*bytes_in_cnt=(\\d+).*", "$1"));
        long out = Long.parseLong(table.replaceAll("(?s).*bytes_out_cnt=(\\d+).*", "$1"));
        // HAProxy counts the bytes of its internal messages, Fulcrum those on the wire (docs/differences.md)
        assertThat(in).isGreaterThanOrEqualTo(5 * "GET / HTTP/1.1\r\nHost: x\r\n\r\n".length());
        assertThat(out).isGreaterThan(5 * 30);
        assertThat(cli("show table limit data.http_req_cnt gt 6")).isEqualTo("# table: limit, type: ip, size:100, used:1\n\n");
        assertThat(cli("clear table limit key 127.0.0.1")).isEqualTo("\n");
        try (HttpClientConn c = HttpClientConn.open(limit)) {
            assertThat(get(c)).isEqualTo("app"); // the client starts afresh
        }
    }

    @Test
    void countersTrackedByAConnectionLastAsLongAsItAndFetchesReadThem() throws Exception {
        try (HttpClientConn a = HttpClientConn.open(counters)) {
            assertThat(get(a)).isEqualTo("gpc0=1 cur=1 src=1 tab=1 in=1 tracked=1,0 trackers=1 req=1 cnt=1 avl=9");
            HttpClientConn b = HttpClientConn.open(counters);
            assertThat(get(b)).isEqualTo("gpc0=2 cur=2 src=2 tab=2 in=1 tracked=1,0 trackers=2 req=2 cnt=1 avl=9");
            assertThat(show("conns")).isEqualTo("""
                    # table: conns, type: ip, size:10, used:1
                    0x: key=127.0.0.1 use=2 exp=E gpc0=2 conn_cnt=2 conn_cur=2 sess_cnt=2 http_req_cnt=2

                    """);
            assertThat(cli("set table conns key 127.0.0.1 data.gpc0 100")).isEqualTo("\n");
            assertThat(get(a)).startsWith("gpc0=101 cur=2 ");
            assertThat(cli("clear table conns")).isEqualTo("\n");
            assertThat(show("conns")).contains("used:1").contains("use=2"); // held: not cleared
            try (HttpClientConn other = HttpClientConn.openFrom("127.0.0.2", counters)) {
                assertThat(get(other)).isEqualTo("gpc0=1 cur=1 src=1 tab=1 in=1 tracked=1,0 trackers=1 req=1 cnt=2 avl=8");
            }
            b.close();
        }
        // Both connections closed: nothing holds the entries, which expire a second later.
        String table = "";
        for (int i = 0; i < 100 && !table.contains("used:0"); i++) {
            Thread.sleep(50);
            table = show("conns");
        }
        assertThat(table).isEqualTo("# table: conns, type: ip, size:10, used:0\n\n");
    }

    @Test
    void aTcpClientMayHoldTwoConnectionsAndTheEndOfEachIsCounted() throws Exception {
        try (java.net.Socket a = TcpProxyKit.connect(tcp); java.net.Socket b = TcpProxyKit.connect(tcp)) {
            assertThat(TcpProxyKit.echo(a, "hello")).isEqualTo("hello");
            assertThat(TcpProxyKit.echo(b, "hi")).isEqualTo("hi");
            try (java.net.Socket c = TcpProxyKit.connect(tcp)) {
                TcpProxyKit.awaitClosed(c, 5000); // a third one is rejected
            } catch (java.net.SocketException reset) {
                // rejected with a reset, before or after the connect call returned
            }
        }
        String table = "";
        for (int i = 0; i < 100 && !table.contains("conn_cur=0 "); i++) {
            Thread.sleep(50);
            table = show("tcp_limit");
        }
        assertThat(table).isEqualTo("""
                # table: tcp_limit, type: ip, size:10, used:1
                0x: key=127.0.0.1 use=0 exp=E conn_cnt=3 conn_cur=0 sess_cnt=2 bytes_in_cnt=7 bytes_out_cnt=7

                """);
    }

    @Test
    void theCliAnswersAsHaproxy() throws Exception {
        assertThat(cli("show table")).matches("# table: by_str, type: string, size:10, used:\\d+\n# table: by_int, type: integer, size:10, used:\\d+\n"
                + "# table: by_ipv6, type: ipv6, size:10, used:\\d+\n# table: by_ip, type: ip, size:10, used:\\d+\n"
                + "# table: cli, type: ip, size:10, used:\\d+\n# table: tcp_limit, type: ip, size:10, used:\\d+\n# table: conns, type: ip, size:10, used:\\d+\n# table: limit, type: ip, size:100, used:\\d+\n\n");
        assertThat(cli("show table nope")).isEqualTo("No such table\n\n");
        assertThat(cli("show table conns data.foo gt 1")).isEqualTo("Filter entry #1: Unknown data type\n\n");
        assertThat(cli("show table conns data.gpc1 gt 1")).isEqualTo("Filter entry #1: Data type not stored in this table\n\n");
        assertThat(cli("show table conns data.gpc0 is 1")).isEqualTo(
                "Filter entry #1: Require and operator among \"eq\", \"ne\", \"le\", \"ge\", \"lt\", \"gt\"\n\n");
        assertThat(cli("show table conns data.gpc0 gt x")).isEqualTo("Filter entry #1: Require a valid integer value to compare against\n\n");
        assertThat(cli("set table cli key abc")).isEqualTo("\n"); // no error: read as 0.0.0.0 (see below)
        assertThat(cli("set table cli key 10.0.0.1 data.gpc1 1")).isEqualTo("Data type not stored in this table\n\n");
        assertThat(cli("set table cli key 10.0.0.1 data.gpc0 x")).isEqualTo("Require a valid integer value to store\n\n");
        assertThat(cli("clear table")).isEqualTo(
                "Required arguments: <table> \"data.<store_data_type>\" <operator> <value> or <table> key <key>\n\n");
        assertThat(cli("set table cli key 10.0.0.9 data.gpc0 7 data.conn_cnt 3")).isEqualTo("\n");
        assertThat(show("cli key 10.0.0.9")).endsWith("0x: key=10.0.0.9 use=0 exp=E gpc0=7 conn_cnt=3\n\n");
        assertThat(cli("clear table cli data.gpc0 eq 7")).isEqualTo("\n");
        assertThat(cli("show table cli key 10.0.0.9")).doesNotContain("key=10.0.0.9");
    }

    /**
     * The CLI reads an ip table's key as HAProxy's inetaddr_host() does, never refusing it: the last three digits of up
     * to four dotted groups, a group's excess carried into the one before. A key not found shows nothing, not even the
     * table's header; the data filters select entries for show and clear only.
     */
    @Test
    void anIpKeyIsReadAsHaproxyReadsIt() throws Exception {
        assertThat(cli("set table cli key nothex data.gpc0 4")).isEqualTo("\n");
        assertThat(show("cli key 0.0.0.0")).endsWith("\n0x: key=0.0.0.0 use=0 exp=E gpc0=4 conn_cnt=0\n\n");
        assertThat(cli("set table cli key 10.0.0.300 data.gpc0 5")).isEqualTo("\n");
        assertThat(show("cli key 10.0.1.44")).endsWith("\n0x: key=10.0.1.44 use=0 exp=E gpc0=5 conn_cnt=0\n\n");
        assertThat(show("cli key 10.0.0.300")).endsWith("\n0x: key=10.0.1.44 use=0 exp=E gpc0=5 conn_cnt=0\n\n");
        assertThat(cli("set table cli key 1.2.3 data.gpc0 6")).isEqualTo("\n");
        assertThat(show("cli key 1.2.3.0")).endsWith("\n0x: key=1.2.3.0 use=0 exp=E gpc0=6 conn_cnt=0\n\n");
        assertThat(cli("clear table cli key 1.2.3")).isEqualTo("\n");
        assertThat(cli("show table cli key 1.2.3.0")).isEqualTo("\n");
        assertThat(cli("show table cli key 10.9.9.9")).isEqualTo("\n");
        assertThat(cli("set table cli data.gpc0 1"))
                .isEqualTo("content-based lookup is only supported with the \"show\" and \"clear\" actions\n\n");
    }

    /** {@code show table} walks HAProxy's tree of keys, whatever order the keys came in. */
    @Test
    void entriesAreListedInTheOrderOfTheirKeys() throws Exception {
        assertThat(keysListed("by_ip", "192.168.1.101", "10.0.0.1", "192.168.1.0", "1.2.3.4", "255.0.0.1"))
                .isEqualTo("1.2.3.4 10.0.0.1 192.168.1.0 192.168.1.101 255.0.0.1");
        assertThat(keysListed("by_ipv6", "2001:db8:c001:c01a::", "::ffff:192.168.1.101", "::ffff:192.168.1.0", "::1", "fe80::1"))
                .isEqualTo("::1 ::ffff:192.168.1.0 ::ffff:192.168.1.101 2001:db8:c001:c01a:: fe80::1");
        assertThat(keysListed("by_int", "100", "3", "20", "0", "2147483647")).isEqualTo("0 3 20 100 2147483647");
        assertThat(keysListed("by_str", "b", "abc", "Z", "a", "ab", "zz")).isEqualTo("Z a ab abc b zz");
    }

    /** Sets the keys in this order, then gives the keys {@code show table} lists, space-separated. */
    private static String keysListed(String table, String... keys) throws Exception {
        for (String k : keys) {
            assertThat(cli("set table " + table + " key " + k + " data.gpc0 1")).isEqualTo("\n");
        }
        return String.join(" ", cli("show table " + table).lines().filter(l -> l.startsWith("0x"))
                .map(l -> l.replaceAll(".* key=(\\S+) .*", "$1")).toList());
    }
}
