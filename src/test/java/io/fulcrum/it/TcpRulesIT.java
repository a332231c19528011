package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;

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

    /**
     * A refused client gets a FIN, as from HAProxy, even when it sent more than the rules read: those bytes are dropped
     * (a close with bytes unread would send a reset, which fails the client's read).
     */
    @Test
    void contentRejectEndsWithAFin() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, origin.port(), "tcp", """
                     tcp-request inspect-delay 5s
                     tcp-request content reject if { req.payload(0,3) -m str BAD }
                     """), fe);
             Socket s = connect(fe)) {
            byte[] sent = new byte[64 * 1024]; // (within the sockets' buffers: the write ends before the refusal)
            sent[0] = 'B';
            sent[1] = 'A';
            sent[2] = 'D';
            s.getOutputStream().write(sent);
            assertThat(TcpProxyKit.readToEof(s, 0)).isEmpty();
            assertThat(origin.accepted()).isZero();
        }
    }

    /**
     * In mode http, a frontend's content rules refuse the request before HAProxy captures it ({@code <BADREQ>}), a
     * backend's after (they run even when neither proxy has HTTP rules): both close without an answer, logged PR with
     * TR -1.
     */
    @Test
    void contentRejectsInHttpModeAreLoggedPr() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.ok("ok");
             FulcrumProcess proxy = serve("""
                     global
                         log 127.0.0.1:%d format raw local0
                     defaults
                         mode http
                         log global
                         option httplog
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend fh
                         bind 127.0.0.1:%d
                         tcp-request content reject if { path /fe }
                         default_backend bh
                     backend bh
                         tcp-request content reject if { path /be }
                         server s1 127.0.0.1:%d
                     """.formatted(logs.port(), fe, origin.port()), fe)) {
            for (String path : new String[] {"/fe", "/be"}) {
                try (Socket s = connect(fe)) {
                    TcpProxyKit.send(s, HttpKit.get(path));
                    assertThat(TcpProxyKit.readToEof(s, 0)).isEmpty();
                }
            }
            // (the two connections end on their own loops: their lines may come in either order)
            List<String> lines = List.of(logs.next(), logs.next());
            assertThat(lines).anyMatch(l -> l.matches(LogIT.like(
                    "127.0.0.1:{N} [{DATE}] fh fh/<NOSRV> -1/-1/-1/-1/{N} -1 0 - - PR-- 1/1/0/0/0 0/0 \"<BADREQ>\"\n")));
            assertThat(lines).anyMatch(l -> l.matches(LogIT.like(
                    "127.0.0.1:{N} [{DATE}] fh bh/<NOSRV> -1/-1/-1/-1/{N} -1 0 - - PR-- 1/1/0/0/0 0/0 \"GET /be HTTP/1.1\"\n")));
            assertThat(origin.accepted()).isZero();
        }
    }

    /**
     * "Rejected connections do not even become a session ... and are not logged", nor are those the session rules
     * reject: in both modes the first line logged is that of the connection accepted after them.
     */
    /**
     * The first evaluation of content rules sees the bytes that came with the connection, as HAProxy's stream reads
     * them before its first analysis: an unconditional reject after a set-var records them. Global maxconn 1 keeps
     * the second connection in the backlog, its bytes sent, until the first leaves: its bytes are there when it is
     * accepted.
     */
    @Test
    void firstEvaluationSeesTheBytesAlreadyThere() throws Exception {
        int hold = freePort();
        int inspect = freePort();
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = serve("""
                     global
                         maxconn 1
                         log 127.0.0.1:%d format raw local0
                     defaults
                         mode tcp
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend hold
                         bind 127.0.0.1:%d
                         tcp-request inspect-delay 10s
                         tcp-request content reject if { req.len gt 100 }
                         default_backend be
                     frontend inspect
                         bind 127.0.0.1:%d
                         log global
                         log-format "len=%%[var(sess.l)] %%ts"
                         tcp-request inspect-delay 5s
                         tcp-request content set-var(sess.l) req.len
                         tcp-request content reject
                         default_backend be
                     backend be
                         server s1 127.0.0.1:1
                     """.formatted(logs.port(), hold, inspect), inspect)) {
            try (Socket first = connect(hold)) {
                Thread.sleep(300); // accepted: it holds the only connection slot, waiting for its bytes
                Socket second = connect(inspect); // completed by the kernel, left in the backlog
                second.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(300);
                first.close();
                try (second) {
                    awaitClosed(second, 5000);
                } catch (SocketException e) {
                    // the reject's reset
                }
            }
            assertThat(logs.next().strip()).isEqualTo("len=5 PR");
        }
    }

    @Test
    void connectionAndSessionRejectsAreNotLogged() throws Exception {
        for (String mode : new String[] {"tcp", "http"}) {
            int conn = freePort();
            int sess = freePort();
            int ok = freePort();
            try (SyslogListener logs = SyslogListener.open();
                 HttpOrigin origin = HttpOrigin.ok("ok");
                 FulcrumProcess proxy = serve("""
                         global
                             log 127.0.0.1:%d format raw local0
                         defaults
                             mode %s
                             log global
                             log-format "%%f %%ts"
                             timeout connect 2s
                             timeout client 10s
                             timeout server 10s
                         frontend conn
                             bind 127.0.0.1:%d
                             tcp-request connection reject
                             default_backend be
                         frontend sess
                             bind 127.0.0.1:%d
                             tcp-request session reject
                             default_backend be
                         frontend ok
                             bind 127.0.0.1:%d
                             default_backend be
                         backend be
                             server s1 127.0.0.1:%d
                         """.formatted(logs.port(), mode, conn, sess, ok, origin.port()), ok)) {
                for (int port : new int[] {conn, sess}) {
                    try (Socket s = connect(port)) {
                        awaitClosed(s, 5000);
                    } catch (SocketException e) {
                        // a connection rule's reset
                    }
                }
                try (HttpClientConn c = HttpClientConn.open(ok)) {
                    assertThat(c.exchange(HttpKit.get("/")).bodyText()).isEqualTo("ok");
                }
                assertThat(logs.next().trim()).as(mode).isEqualTo("ok --");
            }
        }
    }
}
