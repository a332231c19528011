package io.fulcrum.mux.h1;

import io.fulcrum.mux.h1.H1Corpus.Case;
import io.fulcrum.mux.h1.H1Corpus.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends the corpus to the real HAProxy 2.6 (when installed) and checks that it still answers what
 * {@link H1Corpus} recorded: the corpus's HAProxy verdicts come from there.
 */
@EnabledIf("haproxyInstalled")
class H1OracleTest {
    private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");
    /**
     * HAProxy checks trailers after it has forwarded the head: the client gets the 200 from the other side
     * first when that side is quick enough, and the error only cuts the connection.
     */
    private static final Set<String> RACY = Set.of("invalid trailer name", "resp: invalid trailer name");

    private static ServerSocket origin;
    private static ExecutorService pool;
    private static Process haproxy;
    private static int requestPort;
    private static int invalidPort;

    static boolean haproxyInstalled() {
        return Files.isExecutable(HAPROXY);
    }

    @BeforeAll
    static void start() throws Exception {
        pool = Executors.newCachedThreadPool();
        origin = new ServerSocket(0, 200, java.net.InetAddress.getLoopbackAddress());
        pool.submit(H1OracleTest::serve);
        requestPort = freePort();
        invalidPort = freePort();
        Path cfg = Files.createTempFile("h1-oracle", ".cfg");
        Files.writeString(cfg, String.join("\n",
                "defaults",
                "    mode http",
                "    timeout connect 1s",
                "    timeout client 3s",
                "    timeout server 3s",
                "    timeout http-request 2s",
                "frontend req",
                "    bind 127.0.0.1:" + requestPort,
                "    default_backend be",
                "frontend inv",
                "    bind 127.0.0.1:" + invalidPort,
                "    option accept-invalid-http-request",
                "    default_backend be",
                "backend be",
                "    server s1 127.0.0.1:" + origin.getLocalPort(),
                ""));
        haproxy = new ProcessBuilder(HAPROXY.toString(), "-db", "-f", cfg.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        cfg.toFile().deleteOnExit();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!listening(requestPort) || !listening(invalidPort)) {
            assertThat(System.nanoTime()).as("haproxy started").isLessThan(deadline);
            assertThat(haproxy.isAlive()).as("haproxy is running").isTrue();
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (haproxy != null) {
            haproxy.destroy();
        }
        if (origin != null) {
            origin.close();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void haproxyStillAnswersWhatTheCorpusSays() throws Exception {
        List<Future<String>> results = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(32);
        try {
            for (Case c : H1Corpus.CASES) {
                results.add(clients.submit(() -> {
                    int status = send(c);
                    boolean racy = RACY.contains(c.name()) && status == 200;
                    return status == c.haproxy() || racy ? null
                            : c + ": haproxy answers " + status + ", corpus says " + c.haproxy();
                }));
            }
            List<String> wrong = new ArrayList<>();
            for (Future<String> f : results) {
                String w = f.get();
                if (w != null) {
                    wrong.add(w);
                }
            }
            assertThat(wrong).isEmpty();
        } finally {
            clients.shutdownNow();
        }
    }

    /** The status of the first response HAProxy sends back, -1 for none. */
    private static int send(Case c) throws IOException {
        String request = c.kind() == Kind.RESP
                ? "GET /resp/" + H1Corpus.CASES.indexOf(c) + " HTTP/1.1\r\nHost: a\r\n\r\n" : c.raw();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", c.kind() == Kind.INV ? invalidPort : requestPort));
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String line = firstLine(s.getInputStream());
            String[] parts = line.split(" ");
            return parts.length > 1 && line.startsWith("HTTP/") ? Integer.parseInt(parts[1]) : -1;
        } catch (SocketTimeoutException e) {
            return -1;
        }
    }

    /** The origin: answers /resp/N with the corpus response N, anything else with 200 once the request is in. */
    private static void serve() {
        while (!origin.isClosed()) {
            try {
                Socket s = origin.accept();
                pool.submit(() -> answer(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void answer(Socket s) {
        try (s) {
            s.setSoTimeout(200);
            String line = firstLine(s.getInputStream());
            drain(s.getInputStream());
            String[] parts = line.split(" ");
            String reply = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
            if (parts.length > 1 && parts[1].startsWith("/resp/")) {
                reply = H1Corpus.CASES.get(Integer.parseInt(parts[1].substring(6))).raw();
            }
            s.getOutputStream().write(reply.getBytes(StandardCharsets.ISO_8859_1));
            s.shutdownOutput();
            drain(s.getInputStream());
        } catch (IOException e) {
            // the client went away
        }
    }

    private static String firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) >= 0 && b != '\n'; ) {
            line.write(b);
        }
        return line.toString(StandardCharsets.ISO_8859_1).trim();
    }

    /** Reads until the peer stops sending for the socket's timeout, or closes. */
    private static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[4096];
        try {
            while (in.read(buf) >= 0) {
                // discard
            }
        } catch (SocketTimeoutException e) {
            // quiet: the request is in
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
