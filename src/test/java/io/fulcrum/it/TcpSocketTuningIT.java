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

/**
 * Socket tunables seen by {@code ss}: {@code clitcpka-idle} and {@code srvtcpka-idle} (with {@code option clitcpka}/{@code srvtcpka})
 * arm the keepalive timers of both sides; {@code tune.rcvbuf.client} and {@code tune.sndbuf.server} size their buffers; a
 * proxy's {@code backlog} is its listening socket's. Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpSocketTuningIT {

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
}
