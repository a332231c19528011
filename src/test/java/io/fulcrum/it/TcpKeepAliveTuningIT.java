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
 * {@code clitcpka-idle} and {@code srvtcpka-idle} (with {@code option clitcpka}/{@code srvtcpka}) reach the sockets of both
 * sides: {@code ss -o} shows their keepalive timers, armed for the given idle time. Runs against haproxy too.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpKeepAliveTuningIT {

    /** The {@code ss -tno} lines of the established connections {@code filter} selects. */
    private static String ss(String filter) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ss", "-tnoH", "state", "established", filter)
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
}
