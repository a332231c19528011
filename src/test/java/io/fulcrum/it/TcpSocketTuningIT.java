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
 * Socket tunables seen by {@code ss}: {@code clitcpka-idle} and {@code srvtcpka-idle} (with {@code option clitcpka}/{@code srvtcpka})
 * arm the keepalive timers of both sides; {@code tune.rcvbuf.client} and {@code tune.sndbuf.server} size their buffers; a
 * proxy's {@code backlog} is its listening socket's; a bind line's {@code mss} is the segment size its accepted
 * connections advertise (advmss); {@code transparent} binds an address that is not local; a server with {@code tfo}
 * and {@code tcp-ut} still carries traffic. Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpSocketTuningIT {

    private static final String TCP_DEFAULTS = """
            defaults
                mode tcp
                timeout connect 5s
                timeout client 30s
                timeout server 30s
            """;

    /** The {@code ss -tno} lines of the established connections {@code filter} selects. */
    private static String ss(String filter) throws IOException, InterruptedException {
        return ss("-tnoH", "state", "established", filter);
    }

    private static String ss(String... args) throws IOException, InterruptedException {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("ss"));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void keepAliveIdleTimesReachBothSides() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s
                     listen l
                         bind 127.0.0.1:%d
                         option clitcpka
                         option srvtcpka
                         clitcpka-idle 1h
                         clitcpka-intvl 7
                         clitcpka-cnt 3
                         srvtcpka-idle 2h
                         srvtcpka-intvl 9
                         srvtcpka-cnt 4
                         server s1 127.0.0.1:%d
                     """.formatted(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            assertThat(ss("( sport = :" + fe + " and dport = :" + s.getLocalPort() + " )")).as("the client side").containsPattern("timer:\\(keepalive,59min[0-9.sec]*,0\\)");
            assertThat(ss("( dport = :" + origin.port() + " )")).as("the server side").containsPattern("timer:\\(keepalive,119min[0-9.sec]*,0\\)");
        }
    }

    @Test
    void bufferSizesAndBacklog() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     global
                         tune.rcvbuf.client 16384
                         tune.sndbuf.server 24576
                     defaults
                         mode tcp
                         timeout connect 5s
                         timeout client 30s
                         timeout server 30s
                         backlog 77
                     listen l
                         bind 127.0.0.1:%d
                         server s1 127.0.0.1:%d
                     """.formatted(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            assertThat(ss("-ltnH", "( sport = :" + fe + " )")).as("the listen backlog (Send-Q)").containsPattern("LISTEN\\s+0\\s+77\\s");
            // (The kernel doubles what it is given, for its bookkeeping.)
            assertThat(ss("-tmH", "state", "established", "( sport = :" + fe + " and dport = :" + s.getLocalPort() + " )"))
                    .as("the client side").contains(",rb32768,");
            assertThat(ss("-tmH", "state", "established", "( dport = :" + origin.port() + " )")).as("the server side").contains(",tb49152,");
        }
    }

    @Test
    void mssIsTheSegmentSizeAcceptedConnectionsAdvertise() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(TCP_DEFAULTS + """
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
             FulcrumProcess proxy = serve(TCP_DEFAULTS + """
                     listen l
                         bind 127.0.0.1:%d
                         bind 192.0.2.77:%d transparent
                         server s1 127.0.0.1:%d
                     """.formatted(fe, other, origin.port()), fe)) {
            // (on io_uring an IPv6 socket, listed as [::ffff:192.0.2.77])
            assertThat(ss("-ltnH", "( sport = :" + other + " )")).containsPattern("\\b192\\.0\\.2\\.77\\]?:" + other);
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
             FulcrumProcess proxy = serve(TCP_DEFAULTS + """
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
