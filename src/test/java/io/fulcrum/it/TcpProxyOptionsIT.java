package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/** Socket options of {@code mode tcp} proxies: {@code option nolinger} and {@code option tcpka}. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpProxyOptionsIT {

    private static String config(int fe, int be, String options) {
        return """
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 400ms
                    timeout server 30s

                listen test
                    bind 127.0.0.1:%d
                %s
                    server s1 127.0.0.1:%d
                """.formatted(fe, options.indent(4), be);
    }

    /**
     * With {@code option nolinger}, a connection the proxy closes (here on timeout client) is released at
     * once (SO_LINGER 0: a reset), so nothing of it stays on the proxy's side; without it, the proxy's
     * socket waits in FIN-WAIT-2 for the client, which has not closed yet.
     */
    @Test
    void nolingerReleasesTheConnectionAtOnce() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option nolinger"), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            awaitClosed(s, 5000);
            Thread.sleep(300);
            assertThat(sockets("all", "( sport = :" + fe + " )")).as("the proxy's sockets for that connection")
                    .allMatch(l -> l.startsWith("LISTEN"));
        }
    }

    @Test
    void withoutNolingerTheProxySideWaitsInFinWait2() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), ""), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            assertThat(s.getInputStream().read()).as("an orderly close: EOF").isEqualTo(-1);
            Thread.sleep(300);
            assertThat(sockets("fin-wait-2", "( sport = :" + fe + " )")).hasSize(1);
        }
    }

    /** The TCP sockets in {@code state} matching an ss filter, with their timers ({@code ss -o}). */
    private static List<String> sockets(String state, String filter) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ss", "-tnoH", "state", state, filter).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    /** {@code option tcpka}: SO_KEEPALIVE on the client side and on the server side (ss shows a keepalive timer). */
    @Test
    void tcpkaSetsKeepaliveOnBothSides() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "option tcpka\ntimeout client 30s"), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            List<String> clientSide = sockets("established", "( sport = :" + fe + " )");
            List<String> serverSide = sockets("established", "( dport = :" + origin.port() + " )");
            assertThat(clientSide).hasSize(1);
            assertThat(serverSide).hasSize(1);
            assertThat(clientSide.get(0)).as("the proxy's client socket").contains("keepalive");
            assertThat(serverSide.get(0)).as("the proxy's server socket").contains("keepalive");
        }
    }

    @Test
    void noKeepaliveWithoutTcpka() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "timeout client 30s"), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "ping")).isEqualTo("ping");
            List<String> clientSide = sockets("established", "( sport = :" + fe + " )");
            List<String> serverSide = sockets("established", "( dport = :" + origin.port() + " )");
            assertThat(clientSide).hasSize(1);
            assertThat(serverSide).hasSize(1);
            assertThat(clientSide.get(0)).doesNotContain("keepalive");
            assertThat(serverSide.get(0)).doesNotContain("keepalive");
        }
    }
}
