package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.LogIT.config;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * set-src/set-dst/set-src-port/set-dst-port at each level (fc_* keep what tcp-request connection rules left),
 * set-log-level, set-mark and set-tos (seen by ss on the proxy's socket), set-timeout tunnel. The expected values are
 * HAProxy 2.6's (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionActionsIT {

    @Test
    void addressesAtEachLevel() throws Exception {
        int fe = freePort();
        String frontend = """
                log-format "%ci:%cp %fi:%fp %[fc_src] %[fc_dst_port]"
                tcp-request connection set-src ipv4(1.2.3.4)
                tcp-request session set-dst-port int(44)
                tcp-request content set-src-port int(55)
                http-request set-dst str(5.6.7.8)
                http-request set-dst-port int(99)
                http-request return status 200 content-type text/plain lf-string "src=%[src]:%[src_port] fc_src=%[fc_src] dst=%[dst]:%[dst_port] fc_dst=%[fc_dst]:%[fc_dst_port] ci=%ci:%cp fi=%fi:%fp"
                """;
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            HttpClientConn.Response r = c.exchange(HttpKit.get("/"));
            assertThat(new String(r.body())).isEqualTo("src=1.2.3.4:55 fc_src=1.2.3.4 dst=5.6.7.8:99 fc_dst=127.0.0.1:" + fe
                    + " ci=1.2.3.4:55 fi=5.6.7.8:99");
            assertThat(logs.next()).isEqualTo("1.2.3.4:55 5.6.7.8:99 1.2.3.4 " + fe + "\n");
        }
    }

    /** In a TCP session too, content rules set the session's addresses, which the server's PROXY header carries. */
    @Test
    void tcpContentSetSrcAndSilentLog() throws Exception {
        int fe = freePort();
        String frontend = """
                log-format "%ci %[fc_src] %[var(txn.n)]"
                tcp-request content set-src ipv4(9.8.7.6)
                tcp-request content set-var(txn.n) int(1)
                tcp-request content set-log-level silent if { src_port 1 }
                """;
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, frontend, "server s1 127.0.0.1:" + origin.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            assertThat(logs.next()).isEqualTo("9.8.7.6 127.0.0.1 1\n");
        }
        String silent = """
                log-format "%ci"
                tcp-request content set-log-level silent
                """;
        try (SyslogListener logs = SyslogListener.open();
             Origin origin = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = TcpProxyKit.serve(config(logs, "tcp", fe, silent, "server s1 127.0.0.1:" + origin.port()), fe)) {
            try (Socket s = TcpProxyKit.connect(fe)) {
                assertThat(TcpProxyKit.echo(s, "hello")).isEqualTo("hello");
            }
            logs.assertNone(500);
        }
    }

    /** set-log-level: silent drops the line; a level changes the line's priority (local0.err is <131>, info <134>). */
    @Test
    void logLevels() throws Exception {
        int fe = freePort();
        String frontend = """
                log-format "%HP %ST"
                http-request set-log-level silent if { path /quiet }
                http-response set-log-level err if { status 404 }
                http-request return status 404 if { path /missing }
                http-request return status 200
                """;
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, "").replace("format raw ", ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(HttpKit.get("/quiet")).status()).isEqualTo(200);
            assertThat(c.exchange(HttpKit.get("/ok")).status()).isEqualTo(200);
            assertThat(c.exchange(HttpKit.get("/missing")).status()).isEqualTo(404);
            assertThat(logs.next()).startsWith("<134>").endsWith(": /ok 200\n");
            // http-response rules do not run on the proxy's own replies: the level stays info.
            assertThat(logs.next()).startsWith("<134>").endsWith(": /missing 404\n");
        }
    }

    @Test
    void markAndTosOnTheClientSocket() throws Exception {
        int fe = freePort();
        String frontend = """
                tcp-request connection set-mark 0x2a
                http-request set-tos 0x20
                http-request return status 200
                """;
        try (SyslogListener logs = SyslogListener.open();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, frontend, ""), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(HttpKit.get("/")).status()).isEqualTo(200);
            Process ss = new ProcessBuilder("ss", "-tn", "-e", "--tos", "state", "established", "( sport = :" + fe + " )")
                    .redirectErrorStream(true).start();
            String out = new String(ss.getInputStream().readAllBytes());
            assertThat(ss.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(out).contains("fwmark:0x2a").contains("tos:0x20");
        }
    }

    /** set-timeout tunnel replaces the backend's timeout tunnel for the upgraded connection. */
    @Test
    void tunnelTimeout() throws Exception {
        int fe = freePort();
        try (SyslogListener logs = SyslogListener.open();
             HttpOrigin origin = HttpOrigin.upgradingToEcho();
             FulcrumProcess proxy = HttpKit.serve(config(logs, "http", fe, "", """
                     timeout tunnel 30s
                     http-request set-timeout tunnel 400ms
                     server s1 127.0.0.1:%d
                     """.formatted(origin.port())), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.send("GET /ws HTTP/1.1\r\nHost: test\r\nConnection: upgrade\r\nUpgrade: test\r\n\r\n");
            assertThat(c.readHead().startLine()).isEqualTo("HTTP/1.1 101 Switching Protocols");
            assertThat(TcpProxyKit.echo(c.socket, "hello")).isEqualTo("hello");
            long start = System.nanoTime();
            c.socket.setSoTimeout(10_000);
            InputStream in = c.socket.getInputStream();
            assertThat(in.read()).isEqualTo(-1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        }
    }
}
