package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The TCP options of bind and server lines, seen from outside: a bind line's {@code mss} is the segment size its
 * accepted connections advertise ({@code ss}'s advmss); {@code transparent} binds an address that is not local; a
 * server with {@code tfo} and {@code tcp-ut} still carries traffic. Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BindServerTcpOptionsIT {

    private static final String DEFAULTS = """
            defaults
                mode tcp
                timeout connect 5s
                timeout client 30s
                timeout server 30s
            """;

    private static String ss(String... args) throws IOException, InterruptedException {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("ss"));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void mssIsTheSegmentSizeAcceptedConnectionsAdvertise() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(DEFAULTS + """
                     listen l
                         bind 127.0.0.1:%d mss 1400 tcp-ut 20s
                         server s1 127.0.0.1:%d
                     """.formatted(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            // 1400, less the 12 bytes of the timestamps option when the connection uses it (Linux's default).
            assertThat(ss("-tinH", "state", "established", "( sport = :" + fe + " and dport = :" + s.getLocalPort() + " )"))
                    .containsPattern("advmss:(1400|1388)\\s");
        }
    }

    @Test
    void transparentBindsAnAddressThatIsNotLocal() throws Exception {
        assumeThat(System.getProperty("user.name")).as("IP_TRANSPARENT or IP_FREEBIND as root").isEqualTo("root");
        int fe = freePort();
        int other = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(DEFAULTS + """
                     listen l
                         bind 127.0.0.1:%d
                         bind 192.0.2.77:%d transparent
                         server s1 127.0.0.1:%d
                     """.formatted(fe, other, origin.port()), fe)) {
            assertThat(ss("-ltnH", "( sport = :" + other + " )")).contains("192.0.2.77:" + other);
        }
    }

    /**
     * Without a cookie from the server (this origin, like most, has no TCP fast open), a fast open connect falls back
     * to the plain handshake carrying the first data: the traffic goes through as without {@code tfo}. That the
     * socket options are set is {@code ServerSocketsTest}'s.
     */
    @Test
    void tfoAndTcpUtServerCarriesTraffic() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(DEFAULTS + """
                     listen l
                         bind 127.0.0.1:%d
                         retry-on conn-failure empty-response response-timeout
                         server s1 127.0.0.1:%d tfo tcp-ut 20s
                     """.formatted(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            assertThat(origin.accepted()).isEqualTo(1);
        }
    }
}
