package io.fulcrum.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A client of a stats socket (a unix socket, as {@code echo CMD | socat - SOCKET} uses it): sends one line,
 * closes its side and reads the answer to the end. Bounded in time: a silent server fails the test.
 */
final class StatsSocket {
    private final Path path;

    StatsSocket(Path path) {
        this.path = path;
    }

    /** A fresh path for a socket in a temporary directory. */
    static StatsSocket inTempDir() throws IOException {
        return new StatsSocket(Files.createTempDirectory("fulcrum-cli").resolve("stats.sock"));
    }

    Path path() {
        return path;
    }

    /** Sends {@code line} (commands separated by ';') and returns everything the server answered. */
    String run(String line) throws IOException, InterruptedException {
        try (SocketChannel ch = connect()) {
            ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.shutdownOutput();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            ch.configureBlocking(false);
            while (true) {
                buf.clear();
                int n = ch.read(buf);
                if (n < 0) {
                    return out.toString(StandardCharsets.UTF_8);
                }
                if (n == 0) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("no end of answer to '" + line + "' after 10 s; got: " + out);
                    }
                    Thread.sleep(5);
                    continue;
                }
                out.write(buf.array(), 0, n);
            }
        }
    }

    /** Connects, waiting up to 10 s for the socket to appear (the server binds it at start-up). */
    private SocketChannel connect() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.connect(UnixDomainSocketAddress.of(path));
                return ch;
            } catch (IOException e) {
                ch.close();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
