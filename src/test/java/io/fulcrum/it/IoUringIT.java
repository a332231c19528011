package io.fulcrum.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static io.fulcrum.it.HttpKit.get;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code io-uring} (Fulcrum's own global keyword): the loops on Linux's io_uring carry HTTP and TCP traffic, IPv4
 * clients keep their IPv4 addresses (io_uring's sockets are IPv6 ones), socket options and TCP_INFO fetches work,
 * and the stats socket answers an interactive session and one-shot commands (the client's shutdown before the answer:
 * the unix stats sockets run on an epoll loop of their own). Fulcrum only.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IoUringIT {

    @TempDir
    Path dir;

    @BeforeEach
    void fulcrumOnly() {
        assumeFalse(TcpProxyKit.haproxy(), "io-uring is Fulcrum's own keyword");
    }

    @Test
    void httpAndTcpTrafficAndTheCliRunOnIoUring() throws Exception {
        int http = freePort();
        int tcp = freePort();
        int demo = freePort();
        Path sock = dir.resolve("admin.sock");
        try (Origin echo = Origin.start(Origin.ECHO); HttpOrigin web = HttpOrigin.ok("from the origin")) {
            String config = """
                    global
                        io-uring
                        nbthread 2
                        stats socket %s level admin
                    defaults
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend fe
                        mode http
                        bind 127.0.0.1:%d
                        option tcp-smart-accept
                        http-request return status 200 content-type text/plain lf-string "%%[src] %%[dst] %%[fc_rtt(us)]" if { path /who }
                        use_backend self if { path /self }
                        default_backend web
                    backend web
                        mode http
                        option tcpka
                        server s1 127.0.0.1:%d
                    backend self
                        mode http
                        server me 127.0.0.1:%d
                    listen demo
                        mode http
                        bind 127.0.0.1:%d
                        http-request return status 200 content-type text/plain string "from this process"
                    listen echo
                        mode tcp
                        bind 127.0.0.1:%d
                        server e1 127.0.0.1:%d
                    """.formatted(sock, http, web.port(), demo, demo, tcp, echo.port());
            try (FulcrumProcess p = TcpProxyKit.serve(config, http)) {
                assertThat(listensOnIpv6Socket(http)).as("io_uring's listener is an IPv6 socket").isTrue();
                try (HttpClientConn c = HttpClientConn.open(http)) {
                    var who = c.exchange(get("/who"));
                    assertThat(who.status()).isEqualTo(200);
                    // IPv4 addresses, and a round-trip time the kernel measured (a number, on loopback tiny)
                    assertThat(who.bodyText()).matches("127\\.0\\.0\\.1 127\\.0\\.0\\.1 \\d+");
                    for (int i = 0; i < 20; i++) {
                        assertThat(c.exchange(get("/x" + i)).bodyText()).isEqualTo("from the origin");
                    }
                }
                assertThat(web.requests()).hasSize(20);
                TcpProxyKit.awaitListening(p, TcpProxyKit.LOCALHOST, tcp, Duration.ofSeconds(10));
                try (Socket s = TcpProxyKit.connect(tcp)) {
                    assertThat(TcpProxyKit.echo(s, "hello over io_uring")).isEqualTo("hello over io_uring");
                }
                try (CliClient cli = CliClient.open(sock)) {
                    cli.write("prompt\n");
                    assertThat(cli.readUntil("> ")).isEqualTo("\n");
                    cli.write("show servers state web\n");
                    assertThat(cli.readUntil("> ")).contains("web 1 s1 127.0.0.1 2");
                    cli.write("quit\n");
                }
                // A one-shot command: the client shuts its side once it has sent it, the answer still comes back.
                assertThat(CliClient.send(sock, "show servers state web")).contains("web 1 s1 127.0.0.1 2");
                assertThat(CliClient.send(sock, "show fd")).contains("fe=GLOBAL fam=unix");
                // A stop with a client connection open and idle server connections in the pools (to an origin and to
                // this process): every channel is closed before the loops end, nothing is logged. (io_uring ends a
                // close on its loop: one still pending when a loop ended was logged by Netty with its stack trace,
                // seen once at the demo's Ctrl-C; a race this test does not force.)
                try (HttpClientConn open = HttpClientConn.open(http)) {
                    assertThat(open.exchange(get("/last")).bodyText()).isEqualTo("from the origin");
                    assertThat(open.exchange(get("/self")).bodyText()).isEqualTo("from this process");
                    p.signal("TERM");
                    assertThat(p.awaitExit(Duration.ofSeconds(10))).isZero();
                }
                assertThat(p.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
            }
        }
    }

    /**
     * The server half-closes, then the client uploads far more than the socket buffers hold to a server slow to read:
     * the proxy's writes to the server wait for room after the server's FIN (Netty 4.2.18's io_uring channels stall
     * there on their own: {@code IoUringHalfClose}). Every byte arrives.
     */
    @Test
    void uploadAfterTheServersFinArrivesWhole() throws Exception {
        long size = 32L << 20;
        int fe = freePort();
        java.util.concurrent.CompletableFuture<Long> atServer = new java.util.concurrent.CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 if (!TcpProxyKit.readHello(s)) {
                     return;
                 }
                 s.shutdownOutput();
                 Thread.sleep(1200); // the upload fills every buffer on the way before the server reads
                 atServer.complete(s.getInputStream().transferTo(java.io.OutputStream.nullOutputStream()));
             })) {
            String config = """
                    global
                        io-uring
                    defaults
                        mode tcp
                        timeout connect 5s
                        timeout client 60s
                        timeout server 60s
                    listen up
                        bind 127.0.0.1:%d
                        server s1 127.0.0.1:%d
                    """.formatted(fe, origin.port());
            try (FulcrumProcess p = TcpProxyKit.serve(config, fe); Socket s = TcpProxyKit.connect(fe)) {
                TcpProxyKit.send(s, TcpProxyKit.HELLO);
                assertThat(TcpProxyKit.readToEof(s, 100)).isEmpty();
                byte[] chunk = new byte[64 * 1024];
                for (long sent = 0; sent < size; sent += chunk.length) {
                    s.getOutputStream().write(chunk);
                }
                s.shutdownOutput();
                assertThat(atServer.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(size);
            }
        }
    }

    /** {@code no io-uring} after {@code io-uring}: back on epoll, whose IPv4 listener is an IPv4 socket. */
    @Test
    void noIoUringTakesEpollBack() throws Exception {
        int http = freePort();
        String config = """
                global
                    io-uring
                    no io-uring
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200
                """.formatted(http);
        try (FulcrumProcess p = TcpProxyKit.serve(config, http); HttpClientConn c = HttpClientConn.open(http)) {
            assertThat(c.exchange(get("/")).status()).isEqualTo(200);
            assertThat(listensOnIpv6Socket(http)).isFalse();
        }
    }

    /** Whether 127.0.0.1:{@code port} listens as an IPv4-mapped address of an IPv6 socket (/proc/net/tcp6). */
    private static boolean listensOnIpv6Socket(int port) throws Exception {
        String mapped = String.format("0000000000000000FFFF00000100007F:%04X", port);
        return Files.readAllLines(Path.of("/proc/net/tcp6")).stream()
                .map(l -> l.trim().split("\\s+"))
                .anyMatch(f -> f.length > 3 && f[1].equals(mapped) && f[3].equals("0A"));
    }
}
