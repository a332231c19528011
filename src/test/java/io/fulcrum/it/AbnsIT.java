package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code abns@} addresses (Linux's abstract unix sockets) on bind lines, server lines, the stats socket and log
 * targets, driven by real clients (python's sockets: Java has none for the abstract namespace), and how the logs and
 * the CLI name them. HAProxy 2.6 pads an abstract name with NULs to the whole sun_path, Fulcrum's stream sockets do
 * not (docs/differences.md): the clients here name them as each proxy does. Also runs against HAProxy 2.6
 * (-Dit.proxy=haproxy).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AbnsIT {
    /** Sends argv[3] to the abstract stream socket argv[1] (padded to the whole sun_path if argv[2] is 1), prints the answer. */
    private static final String CLIENT = """
            import socket, sys
            name = b'\\0' + sys.argv[1].encode()
            if sys.argv[2] == '1':
                name = name.ljust(108, b'\\0')
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(10)
            s.connect(name)
            s.sendall(sys.argv[3].encode())
            s.shutdown(socket.SHUT_WR)
            out = b''
            while True:
                b = s.recv(65536)
                if not b:
                    break
                out += b
            sys.stdout.write(out.decode())
            """;
    /** Receives datagrams on the abstract socket argv[1], padded as HAProxy names it, a line each. */
    private static final String RECEIVER = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind((b'\\0' + sys.argv[1].encode()).ljust(108, b'\\0'))
            print('ready', flush=True)
            while True:
                print(s.recv(65536).decode().rstrip('\\n'), flush=True)
            """;

    @Test
    void abstractSocketsCarryTrafficTheCliAndLogs() throws Exception {
        int port = freePort();
        String prefix = "fulcrum-it-" + ProcessHandle.current().pid() + "-" + port;
        String config = """
                global
                    stats socket abns@%1$s-cli level admin
                    log abns@%1$s-log local0
                defaults
                    mode http
                    log global
                    timeout connect 2s
                    timeout client 5s
                    timeout server 5s
                frontend fe
                    bind 127.0.0.1:%2$d
                    bind abns@%1$s-fe
                    log-format "fe %%ci:%%cp %%fi:%%fp %%si:%%sp %%bi:%%bp %%ST"
                    default_backend be
                frontend inner
                    bind abns@%1$s-inner
                    log-format "inner %%ci:%%cp %%fi:%%fp %%[src] %%ST"
                    http-request return status 200 content-type text/plain string inner
                backend be
                    server s1 abns@%1$s-inner
                """.formatted(prefix, port);
        Process receiver = new ProcessBuilder("python3", "-c", RECEIVER, prefix + "-log").redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (java.io.IOException e) {
                // the receiver was stopped
            }
        });
        try {
            assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo("ready");
            try (FulcrumProcess proxy = serve(config, port)) {
                try (var s = connect(port)) {
                    send(s, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
                    assertThat(readToEof(s, 1 << 16)).startsWith("HTTP/1.1 200").endsWith("inner");
                }
                assertThat(abns(prefix + "-fe", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"))
                        .startsWith("HTTP/1.1 200").endsWith("inner");
                assertThat(abns(prefix + "-cli", "show cli sockets\n")).contains("\nabns@" + prefix + "-cli admin all\n");
                String stat = abns(prefix + "-cli", "show stat\n");
                assertThat(stat.lines().filter(l -> l.startsWith("be,s1,")).findFirst().orElseThrow()).contains(",unix,");

                List<String> got = new java.util.ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String l = lines.poll(10, TimeUnit.SECONDS);
                    assertThat(l).as("log line %d of 4, got %s", i + 1, got).isNotNull();
                    // after the syslog header; the client's port varies
                    got.add(l.substring(l.indexOf(": ") + 2).replaceFirst("^fe 127\\.0\\.0\\.1:\\d+ ", "fe 127.0.0.1:PORT "));
                }
                assertThat(got).containsExactlyInAnyOrder("inner unix:1 unix:1 - 200", "inner unix:1 unix:1 - 200",
                        "fe 127.0.0.1:PORT 127.0.0.1:" + port + " unix:0 unix:0 200",
                        "fe unix:2 unix:2 unix:0 unix:0 200");
            }
        } finally {
            receiver.destroy();
            receiver.waitFor(5, TimeUnit.SECONDS);
            reader.join(5000);
        }
    }

    /** What the proxy answers {@code request} on its abstract socket {@code name}, named as it names it. */
    private static String abns(String name, String request) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", CLIENT, name, TcpProxyKit.haproxy() ? "1" : "0", request).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(15, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return new String(out, StandardCharsets.US_ASCII);
    }
}
