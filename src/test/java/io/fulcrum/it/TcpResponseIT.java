package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;

import static io.fulcrum.it.TcpProxyKit.assertSilent;
import static io.fulcrum.it.TcpProxyKit.bytes;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.millisSince;
import static io.fulcrum.it.TcpProxyKit.readExactly;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.serve;
import static io.fulcrum.it.TcpProxyKit.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * tcp-response content rules in mode tcp: the server's bytes are held while the rules wait for what they need (a
 * banner checked by its payload, a TLS server hello), then passed on, or the session is rejected (PD), closed at the
 * server (--) or silently dropped (PR). What the client sees and the log line's termination state and byte count are
 * HAProxy 2.6's: the test also runs against it (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpResponseIT {
    private static final String BAD = "BAD banner\r\n";
    private static final String GOOD = "GOOD banner\r\n";

    /** Sends {@code banner} at once (in two parts {@code pause} ms apart, when positive), then echoes. */
    private static Origin.Handler banner(String banner, int split, long pause) {
        return s -> {
            OutputStream out = s.getOutputStream();
            if (pause > 0) {
                out.write(bytes(banner.substring(0, split)));
                out.flush();
                Thread.sleep(pause);
                out.write(bytes(banner.substring(split)));
            } else {
                out.write(bytes(banner));
            }
            out.flush();
            Origin.ECHO.handle(s);
        };
    }

    private static String config(int port, String rules, int server) {
        return """
                global
                    log stdout format raw local0
                defaults
                    mode tcp
                    log global
                    log-format "%%ft %%ts %%B %%[var(txn.len)]"
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                listen px
                    bind 127.0.0.1:%d
                %s
                    server s1 127.0.0.1:%d
                """.formatted(port, rules.indent(4), server);
    }

    private static final String BANNER_RULES = """
            tcp-response inspect-delay 5s
            tcp-response content set-var(txn.len) res.len
            tcp-response content reject if { res.payload(0,3) -m str BAD }
            """;

    @Test
    void bannerCheckedBeforeItGoesOn() throws Exception {
        int fe = freePort();
        try (Origin good = Origin.start(banner(GOOD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, BANNER_RULES, good.port()), fe)) {
            for (int i = 0; i < 2; i++) { // (the second one is timed: the first warms the proxy up)
                try (Socket s = connect(fe)) {
                    long start = System.nanoTime();
                    assertThat(text(readExactly(s, GOOD.length()))).isEqualTo(GOOD);
                    assertThat(millisSince(start, System.nanoTime())).as("decided once the bytes were there, not at the delay's end")
                            .isLessThan(4000);
                    assertThat(echo(s, "ping")).isEqualTo("ping");
                }
            }
        }
    }

    @Test
    void rejectedByPayload() throws Exception {
        int fe = freePort();
        try (Origin bad = Origin.start(banner(BAD, 2, 300));
             FulcrumProcess proxy = serve(config(fe, BANNER_RULES, bad.port()), fe)) {
            try (Socket s = connect(fe)) {
                long start = System.nanoTime();
                assertThat(readToEof(s, 100)).as("nothing of the banner reaches the client").isEmpty();
                long waited = millisSince(start, System.nanoTime());
                assertThat(waited).as("waited for the banner's third byte").isGreaterThanOrEqualTo(250).isLessThan(4000);
            }
            assertThat(logLines(proxy, 1)).containsExactly("px PD 12 12");
        }
    }

    /**
     * cur_server_timeout and cur_tunnel_timeout in mode tcp: 0 while the request rules run (no server connection
     * yet), the backend's timeouts once the server connection is up (response rules, the log line).
     */
    @Test
    void currentTimeoutsFollowTheServerConnection() throws Exception {
        int fe = freePort();
        try (Origin echo = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve("""
                     global
                         log stdout format raw local0
                     defaults
                         mode tcp
                         log global
                         log-format "%%f %%ts %%B %%[var(txn.before)] %%[var(txn.before_tunnel)] %%[var(txn.after)] %%[var(txn.after_tunnel)] %%[cur_server_timeout] %%[cur_tunnel_timeout]"
                         timeout connect 2s
                         timeout client 10s
                         timeout server 10s
                     frontend px
                         bind 127.0.0.1:%d
                         default_backend be
                     backend be
                         timeout tunnel 7s
                         tcp-request content set-var(txn.before) cur_server_timeout
                         tcp-request content set-var(txn.before_tunnel) cur_tunnel_timeout
                         tcp-response content set-var(txn.after) cur_server_timeout
                         tcp-response content set-var(txn.after_tunnel) cur_tunnel_timeout
                         server s1 127.0.0.1:%d
                     """.formatted(fe, echo.port()), fe)) {
            try (Socket s = connect(fe)) {
                assertThat(echo(s, "ping")).isEqualTo("ping");
            }
            assertThat(logLines(proxy, 1)).as("the tunnel timeout replaced the server one")
                    .containsExactly("px -- 4 0 0 10000 7000 7000 7000");
        }
    }

    /** The client's bytes go to the server while the response is held: here the server's answer is their echo. */
    @Test
    void requestFlowsWhileTheResponseIsInspected() throws Exception {
        int fe = freePort();
        try (Origin echo = Origin.start(Origin.ECHO);
             FulcrumProcess proxy = serve(config(fe, BANNER_RULES, echo.port()), fe)) {
            try (Socket s = connect(fe)) {
                assertThat(echo(s, "GOOD")).isEqualTo("GOOD");
            }
            try (Socket s = connect(fe)) {
                s.getOutputStream().write(bytes("BAD!"));
                assertThat(readToEof(s, 100)).isEmpty();
            }
            // (the two sessions end close together: their lines may come in either order)
            assertThat(logLines(proxy, 2)).containsExactlyInAnyOrder("px -- 4 4", "px PD 4 4");
        }
    }

    /** Without an inspect delay the rules run before the server's first byte, on nothing: the banner passes. */
    @Test
    void withoutDelayTheRulesDecideOnNothing() throws Exception {
        int fe = freePort();
        try (Origin bad = Origin.start(banner(BAD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, """
                     tcp-response content set-var(txn.len) res.len
                     tcp-response content reject if { res.payload(0,3) -m str BAD }
                     """, bad.port()), fe);
             Socket s = connect(fe)) {
            assertThat(text(readExactly(s, BAD.length()))).isEqualTo(BAD);
        }
    }

    /** When the delay ends, the rules decide with what came. */
    @Test
    void delayEnds() throws Exception {
        int fe = freePort();
        try (Origin bad = Origin.start(banner(BAD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, """
                     tcp-response inspect-delay 500ms
                     tcp-response content reject if { res.payload(0,30) -m sub BAD }
                     tcp-response content set-var(txn.len) res.len
                     """, bad.port()), fe)) {
            try (Socket s = connect(fe)) {
                long start = System.nanoTime();
                assertThat(text(readExactly(s, BAD.length()))).isEqualTo(BAD);
                assertThat(millisSince(start, System.nanoTime())).isGreaterThanOrEqualTo(400);
            }
            assertThat(logLines(proxy, 1)).containsExactly("px -- 12 12");
        }
    }

    @Test
    void closeEndsTheServerSideAfterWhatItSent() throws Exception {
        int fe = freePort();
        try (Origin bad = Origin.start(banner(BAD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, """
                     tcp-response inspect-delay 2s
                     tcp-response content close if { res.payload(0,3) -m str BAD }
                     """, bad.port()), fe)) {
            try (Socket s = connect(fe)) {
                assertThat(readToEof(s, 100)).isEqualTo(BAD);
            }
            assertThat(logLines(proxy, 1)).containsExactly("px -- 12 -");
        }
    }

    @Test
    void silentDropTellsTheClientNothing() throws Exception {
        int fe = freePort();
        try (Origin bad = Origin.start(banner(BAD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, """
                     tcp-response inspect-delay 2s
                     tcp-response content silent-drop if { res.payload(0,3) -m str BAD }
                     """, bad.port()), fe)) {
            try (Socket s = connect(fe)) {
                assertSilent(s, 700, "a silently dropped connection");
            }
            assertThat(logLines(proxy, 1)).containsExactly("px PR 12 -");
        }
    }

    /** A TLS server is told from another by its hello, which may come in pieces. */
    @Test
    void sslHelloType() throws Exception {
        byte[] hello = {0x16, 3, 3, 0, 6, 2, 0, 0, 2, 'o', 'k'};
        Origin.Handler tls = s -> {
            OutputStream out = s.getOutputStream();
            out.write(Arrays.copyOf(hello, 7));
            out.flush();
            Thread.sleep(200);
            out.write(Arrays.copyOfRange(hello, 7, hello.length));
            out.flush();
            Origin.ECHO.handle(s);
        };
        String rules = """
                tcp-response inspect-delay 2s
                tcp-response content accept if { res.ssl_hello_type 2 }
                tcp-response content reject
                """;
        int fe = freePort();
        int fe2 = freePort();
        try (Origin tlsServer = Origin.start(tls);
             Origin plain = Origin.start(banner(GOOD, 0, 0));
             FulcrumProcess proxy = serve(config(fe, rules, tlsServer.port()), fe);
             FulcrumProcess proxy2 = serve(config(fe2, rules, plain.port()), fe2)) {
            try (Socket s = connect(fe)) {
                assertThat(readExactly(s, hello.length)).isEqualTo(hello);
            }
            try (Socket s = connect(fe2)) {
                assertThat(readToEof(s, 100)).isEmpty();
            }
        }
    }

    private static List<String> logLines(FulcrumProcess proxy, int n) throws InterruptedException {
        return logLines(proxy, "px ", n);
    }

    /** The log lines (starting with {@code prefix}) written so far, waiting (bounded) for {@code n} of them. */
    static List<String> logLines(FulcrumProcess proxy, String prefix, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        List<String> lines;
        do {
            lines = proxy.stdout().lines().filter(l -> l.startsWith(prefix)).toList();
            if (lines.size() >= n) {
                break;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return lines;
    }
}
