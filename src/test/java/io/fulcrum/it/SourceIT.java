package io.fulcrum.it;

import io.fulcrum.it.HttpClientConn.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code source}: the address connections to servers come from, a backend's or a server's own port range. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SourceIT {

    /** Answers with the address and port the connection came from. */
    private static HttpOrigin origin() throws Exception {
        return HttpOrigin.start(x -> x.reply(200, x.socket.getInetAddress().getHostAddress() + ":" + x.socket.getPort()));
    }

    @Test
    void backendSourceAddress() throws Exception {
        int fe = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "", "source 127.0.0.2", origin.port()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            assertThat(c.exchange(get("/")).bodyText()).startsWith("127.0.0.2:");
        }
    }

    /**
     * A server's port range: each connection takes a free port of it, the server line's source overrides the
     * backend's, and with every port in use a connection cannot be made (503); a port comes back when its connection
     * closes.
     */
    @Test
    void serverPortRange() throws Exception {
        int fe = freePort();
        int low = freePort();
        try (HttpOrigin origin = origin();
             FulcrumProcess proxy = serve(config("127.0.0.1:" + fe, "",
                     "http-reuse never\nsource 127.0.0.2\ndefault-server source 127.0.0.3:" + low + "-" + (low + 1), origin.port()), fe);
             HttpClientConn a = HttpClientConn.open(fe);
             HttpClientConn b = HttpClientConn.open(fe)) {
            String first = a.exchange(get("/")).bodyText();
            String second = b.exchange(get("/")).bodyText();
            assertThat(java.util.List.of(first, second)).containsExactlyInAnyOrder("127.0.0.3:" + low, "127.0.0.3:" + (low + 1));
            try (HttpClientConn c = HttpClientConn.open(fe)) {
                Response r = c.exchange(get("/"));
                assertThat(r.status()).isEqualTo(503);
            }
            a.close(); // (http-reuse never: its server connection closes with it)
            long deadline = System.nanoTime() + 5_000_000_000L;
            Response r;
            do {
                Thread.sleep(50);
                try (HttpClientConn d = HttpClientConn.open(fe)) {
                    r = d.exchange(get("/"));
                }
            } while (r.status() != 200 && System.nanoTime() < deadline);
            assertThat(r.bodyText()).isEqualTo(first);
        }
    }

    /**
     * Health checks leave from the source too, as the traffic does: the server's own (a port of its range), else the
     * backend's. Passes against haproxy too ({@code -Dit.proxy=haproxy}).
     */
    @Test
    void checksUseTheSource() throws Exception {
        int fe = freePort();
        int low = freePort();
        java.util.Queue<String> seen = new java.util.concurrent.ConcurrentLinkedQueue<>();
        try (Origin origin = Origin.start(s -> {
            java.io.InputStream in = s.getInputStream();
            byte[] b = new byte[6];
            if (in.readNBytes(b, 0, 6) == 6) {
                seen.add(s.getInetAddress().getHostAddress() + ":" + s.getPort());
                TcpProxyKit.send(s, "PONG\r\n");
            }
        })) {
            String cfg = """
                    defaults
                        mode tcp
                        timeout connect 2s
                        timeout client 5s
                        timeout server 5s
                    listen be
                        bind 127.0.0.1:%d
                        source 127.0.0.5
                        option tcp-check
                        tcp-check send PING\\r\\n
                        tcp-check expect string PONG
                        server s1 127.0.0.1:%d check inter 200 source 127.0.0.4:%d-%d
                        server s2 127.0.0.1:%d check inter 200
                    """.formatted(fe, origin.port(), low, low + 1, origin.port());
            try (FulcrumProcess proxy = TcpProxyKit.serve(cfg, fe)) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (System.nanoTime() < deadline && (seen.stream().noneMatch(a -> a.startsWith("127.0.0.4:"))
                        || seen.stream().noneMatch(a -> a.startsWith("127.0.0.5:")))) {
                    Thread.sleep(50);
                }
                assertThat(seen).anyMatch(a -> a.startsWith("127.0.0.4:")).anyMatch(a -> a.startsWith("127.0.0.5:"))
                        .allSatisfy(a -> assertThat(a).satisfiesAnyOf(
                                x -> assertThat(x).isIn("127.0.0.4:" + low, "127.0.0.4:" + (low + 1)),
                                x -> assertThat(x).startsWith("127.0.0.5:")));
            }
        }
    }
}
