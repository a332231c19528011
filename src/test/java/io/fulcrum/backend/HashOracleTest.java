package io.fulcrum.backend;

import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server chosen for a set of keys by the real HAProxy 2.6 (when installed) and by Fulcrum's backend with
 * the same lines: map-based and consistent hashing must agree key for key.
 */
@EnabledIf("haproxyInstalled")
class HashOracleTest {
    private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");

    static boolean haproxyInstalled() {
        return Files.isExecutable(HAPROXY);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "balance uri\nhash-type map-based",
            "balance uri whole\nhash-type map-based djb2 avalanche",
            "balance uri\nhash-type consistent",
            "balance uri len 6\nhash-type consistent wt6",
            "balance url_param k\nhash-type consistent crc32",
            "balance hdr(x-key)\nhash-type consistent sdbm",
    })
    void sameServerAsHaproxy(String balance) throws Exception {
        int[] ports = {freePort(), freePort(), freePort(), freePort()};
        String servers = """
                server a 127.0.0.1:%d weight 1
                server b 127.0.0.1:%d weight 2 id 7
                server c 127.0.0.1:%d weight 3
                """.formatted(ports[1], ports[2], ports[3]);
        StringBuilder cfg = new StringBuilder("""
                defaults
                    mode http
                    timeout connect 1s
                    timeout client 3s
                    timeout server 3s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                backend be
                """.formatted(ports[0]));
        cfg.append((balance + "\n" + servers).indent(4));
        for (int i = 1; i <= 3; i++) {
            String name = String.valueOf((char) ('a' + i - 1));
            cfg.append("listen s").append(name).append("\n    bind 127.0.0.1:").append(ports[i])
                    .append("\n    http-request return status 200 content-type text/plain string ").append(name).append("\n");
        }
        Path file = Files.createTempFile("hash-oracle", ".cfg");
        Files.writeString(file, cfg);
        Process haproxy = new ProcessBuilder(HAPROXY.toString(), "-db", "-f", file.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            awaitListening(ports[0]);
            Backend fulcrum = BalanceTest.backend(balance + "\n" + servers);
            List<String> mismatches = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                String key = "k" + i * 7919;
                String uri = "/" + key + "/x?k=" + key;
                String theirs = ask(ports[0], uri, key);
                var ctx = BalanceTest.request(fulcrum, uri);
                ctx.request.headers().add("x-key", key);
                String ours = BalanceTest.pick(fulcrum, ctx);
                if (!theirs.equals(ours)) {
                    mismatches.add(uri + " haproxy=" + theirs + " fulcrum=" + ours);
                }
            }
            assertThat(mismatches).isEmpty();
        } finally {
            haproxy.destroy();
            haproxy.waitFor();
            Files.deleteIfExists(file);
        }
    }

    private static String ask(int port, String uri, String key) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(3000);
            s.getOutputStream().write(("GET " + uri + " HTTP/1.0\r\nx-key: " + key + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    private static void awaitListening(int port) throws Exception {
        long end = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < end) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        throw new IOException("haproxy did not listen on " + port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
