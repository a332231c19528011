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
                assertThat(CliClient.send(cli, "show servers state be")).contains(" s1 127.0.0.1 2 0 1 1 ").contains(" - " + b.port() + " - 0 0 - - 0\n");
            }
            assertThat(fetch(fe)).isEqualTo("b");
        } finally {
            b.close();
        }
    }

    private static String fetch(int fe) throws Exception {
        try (Socket s = connect(fe)) {
            return readToEof(s, 100);
        }
    }
}
