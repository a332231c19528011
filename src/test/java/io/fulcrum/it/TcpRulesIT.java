package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.net.SocketException;

import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * tcp-request connection, session and content rules: rejected connections are closed before reaching a
 * server, accepted ones go on; session variables carry from one rule list to the next. Also runs against
 * HAProxy 2.6 (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpRulesIT {

    private static String config(int fe, int be, String mode, String rules) {
        return """
                defaults
                    mode %s
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s

                frontend fe
                    bind 127.0.0.1:%d
                %s
                    default_backend be

                backend be
                    server s1 127.0.0.1:%d
                """.formatted(mode, fe, rules.indent(4), be);
    }

    @Test
    void connectionRejectClosesBeforeTheServer() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "tcp", """
                     tcp-request connection accept if FALSE
                     tcp-request connection reject if TRUE
                     """), fe)) {
            try (Socket s = connect(fe)) {
                awaitClosed(s, 5000);
            } catch (SocketException e) {
                // Reset as soon as accepted, as HAProxy does: the handshake itself may report it.
            }
            assertThat(origin.accepted()).isZero();
        }
    }

    @Test
    void acceptStopsTheListAndVariablesCarryToContentRules() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "tcp", """
                     tcp-request connection accept
                     tcp-request connection reject
                     tcp-request session set-var(sess.ok) int(1)
                     tcp-request content reject unless { var(sess.ok) -m int 1 }
                     """), fe);
             Socket s = connect(fe)) {
            assertThat(echo(s, "hello")).isEqualTo("hello");
        }
    }

    @Test
    void contentRejectInHttpModeClosesWithoutAnswer() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve(config(fe, origin.port(), "http", """
                     tcp-request content set-var(txn.x) int(7)
                     tcp-request content reject if { var(txn.x) -m int 7 }
                     """), fe);
             Socket s = connect(fe)) {
            TcpProxyKit.send(s, HttpKit.get("/"));
            assertThat(TcpProxyKit.readToEof(s, 0)).isEmpty();
            assertThat(origin.accepted()).isZero();
        }
    }
}
