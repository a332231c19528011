package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.haproxy;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code set server addr}: the traffic and the health checks follow the server to its new address, with
 * HAProxy's answers; {@code show servers conn} names it there. Holds for HAProxy 2.6 (-Dit.proxy=haproxy)
 * but for the refused port, which HAProxy would wrap.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerAddressIT {

    @Test
    void trafficAndChecksFollowTheNewAddress() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        Origin b = Origin.start(s -> send(s, "b"));
        try (Origin a = Origin.start(s -> send(s, "a"));
             FulcrumProcess p = serve("""
                     global
                         nbthread 2
                         stats socket %s level admin
                     defaults
                         mode tcp
                         timeout connect 1s
                         timeout client 5s
                         timeout server 5s
                     backend be
                         server s1 127.0.0.1:%d check inter 100 rise 1 fall 1
                     frontend fe
                         bind 127.0.0.1:%d
                         default_backend be
                     """.formatted(cli, a.port(), fe), fe)) {
            assertThat(fetch(fe)).isEqualTo("a");
            assertThat(CliClient.send(cli, "set server be/s1 addr 127.0.0.1 port " + b.port()))
                    .isEqualTo("no need to change the addr, port changed from '" + a.port() + "' to '" + b.port() + "' by 'stats socket command'\n\n");
            assertThat(fetch(fe)).isEqualTo("b");
            assertThat(CliClient.send(cli, "show servers conn be")).startsWith("# bkname/svname bkid/svid addr port - purge_delay used_cur used_max need_est"
                    + " unsafe_nb safe_nb idle_lim idle_cur idle_per_thr[2]\nbe/s1 2/1 127.0.0.1 " + b.port() + " - 5000 ");
            assertThat(CliClient.send(cli, "show servers conn foo")).isEqualTo("Can't find backend.\n\n");

            a.close(); // the checks now go to b: the server stays up
            Thread.sleep(1000);
            assertThat(p.stderr()).doesNotContain("is DOWN");
            assertThat(fetch(fe)).isEqualTo("b");

            assertThat(CliClient.send(cli, "set server be/s1 addr 127.0.0.1 port " + b.port()))
                    .isEqualTo("no need to change the addr, no need to change the port by 'stats socket command'\n\n");
            assertThat(CliClient.send(cli, "set server be/s1 addr foo")).isEqualTo("Invalid addr 'foo' by 'stats socket command'\n\n");
            assertThat(CliClient.send(cli, "set server be/s1 addr 1.2.3")).isEqualTo("Invalid addr '1.2.3' by 'stats socket command'\n\n");
            assertThat(CliClient.send(cli, "set server be/s1 addr")).isEqualTo("set server <b>/<s> addr requires an address and optionally a port.\n\n");
            assertThat(CliClient.send(cli, "set severity-output string; set server be/s1 addr ::1; set server be/s1 addr 127.0.0.1"))
                    .isEqualTo("\n[warning]: IP changed from '127.0.0.1' to '::1' by 'stats socket command'\n\n"
                            + "[warning]: IP changed from '::1' to '127.0.0.1' by 'stats socket command'\n\n");
            // a bad port with the same address changes nothing, a warning as every answer of the command
            assertThat(CliClient.send(cli, "set severity-output number; set server be/s1 addr 127.0.0.1 port x"))
                    .isEqualTo("\n[4]: no need to change the addr, problem converting port 'x' to an int by 'stats socket command'\n\n");
            if (!haproxy()) {
                // HAProxy would move the server to port 34463 here; Fulcrum refuses and changes nothing.
                assertThat(CliClient.send(cli, "set server be/s1 addr 127.0.0.2 port 99999"))
                        .isEqualTo("problem converting port '99999' to an int by 'stats socket command'\n\n");
                // (up again: a check may have failed while the address was ::1 above, the next brings it back)
                assertThat(upAgain(cli)).contains(" s1 127.0.0.1 2 0 1 1 ").contains(" - " + b.port() + " - 0 0 - - 0\n");
            }
            assertThat(fetch(fe)).isEqualTo("b");
        } finally {
            b.close();
        }
    }

    /**
     * Every address form of configuration.txt section 11 on a server line and on {@code add server}: what
     * {@code show servers state} and {@code show stat} give for it. No host is 0.0.0.0 (:: after ipv6@), and without
     * brackets the last colon is the port's. Nothing connects: the addresses are only shown.
     */
    @Test
    void addressFormsAsHaproxyReadsThem() throws Exception {
        Path cli = Files.createTempDirectory("fulcrum-cli").resolve("stats.sock");
        int fe = freePort();
        try (FulcrumProcess p = serve("""
                global
                    stats socket %s level admin
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                backend be
                    server s0 :80
                    server s1 ipv6@::1:81
                    server s2 ipv6@[::1]:82
                    server s3 ipv4@127.0.0.1:83
                    server s4 ip@127.0.0.2:84
                    server s5 ::1:85
                    server s6 ipv6@:86
                    server s7 [::1]
                    server s8 ipv6@::ffff:127.0.0.1:88
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(cli, fe), fe)) {
            assertThat(CliClient.send(cli, "add server be/d0 :90")).isEqualTo("New server registered.\n\n");
            assertThat(CliClient.send(cli, "add server be/d1 ipv6@::1:91")).isEqualTo("New server registered.\n\n");
            assertThat(CliClient.send(cli, "add server be/d2 ipv4@127.0.0.1:92")).isEqualTo("New server registered.\n\n");
            assertThat(CliClient.send(cli, "add server be/d3 ip@[::1]:93")).isEqualTo("New server registered.\n\n");
            String state = CliClient.send(cli, "show servers state be");
            String[][] expected = {
                    {"s0", "0.0.0.0", "80"}, {"s1", "::1", "81"}, {"s2", "::1", "82"}, {"s3", "127.0.0.1", "83"},
                    {"s4", "127.0.0.2", "84"}, {"s5", "::1", "85"}, {"s6", "::", "86"}, {"s7", "::1", "0"},
                    {"s8", "::ffff:127.0.0.1", "88"}, {"d0", "0.0.0.0", "90"}, {"d1", "::1", "91"}, {"d2", "127.0.0.1", "92"},
                    {"d3", "::1", "93"}};
            for (String[] e : expected) {
                // srv_name srv_addr ..., then srv_fqdn (none: a literal) and srv_port
                assertThat(state).containsPattern("\\n\\d+ be \\d+ " + e[0] + " " + java.util.regex.Pattern.quote(e[1])
                        + " (\\S+ ){12}- " + e[2] + " ");
            }
            String stat = CliClient.send(cli, "show stat");
            assertThat(stat).contains(",s0,").containsPattern("\\nbe,s0,.*,0\\.0\\.0\\.0:80,")
                    .containsPattern("\\nbe,s1,.*,\\[::1\\]:81,").containsPattern("\\nbe,s6,.*,\\[::\\]:86,")
                    .containsPattern("\\nbe,s8,.*,\\[::ffff:127\\.0\\.0\\.1\\]:88,").containsPattern("\\nbe,d0,.*,0\\.0\\.0\\.0:90,");
            // an IPv6 address without brackets and without a port is the name ':' and port 1, kept unresolved by add server
            // (HAProxy shows its srv_addr as ::, the family's any-address: docs/differences.md)
            assertThat(CliClient.send(cli, "add server be/d4 ipv6@::1")).isEqualTo("New server registered.\n\n");
            assertThat(CliClient.send(cli, "add server be/d5 []:80")).isEqualTo("New server registered.\n\n");
            state = CliClient.send(cli, "show servers state be");
            assertThat(state).containsPattern("\\n\\d+ be \\d+ d4 \\S+ (\\S+ ){12}: 1 ")
                    .containsPattern("\\n\\d+ be \\d+ d5 - (\\S+ ){12}\\[\\] 80 ");
        }
    }

    /** {@code show servers state be} once s1 is up (its checks run every 100 ms), or after 5 s. */
    private static String upAgain(Path cli) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String state = CliClient.send(cli, "show servers state be");
        while (!state.contains(" s1 127.0.0.1 2 ") && System.nanoTime() < deadline) {
            Thread.sleep(50);
            state = CliClient.send(cli, "show servers state be");
        }
        return state;
    }

    private static String fetch(int fe) throws Exception {
        try (Socket s = connect(fe)) {
            return readToEof(s, 100);
        }
    }
}
