package io.fulcrum.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A client of a stats socket, as scripts use one: {@link #send} writes a line, shuts its side and reads the
 * answer until the server closes ({@code echo "show info" | socat ... stdio}); an interactive session reads
 * up to each prompt.
 */
final class CliClient implements AutoCloseable {
    private final SocketChannel channel;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    private CliClient(SocketChannel channel) {
        this.channel = channel;
    }

    static CliClient open(Path unixSocket) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(unixSocket));
        return new CliClient(ch);
    }

    static CliClient open(int tcpPort) throws IOException {
        return open(new InetSocketAddress("127.0.0.1", tcpPort));
    }

    static CliClient open(SocketAddress tcp) throws IOException {
        return new CliClient(SocketChannel.open(tcp));
    }

    /** One-shot: {@code line} and a newline, then everything the server answers until it closes. */
    static String send(Path unixSocket, String line) throws IOException {
        return send(open(unixSocket), line);
    }

    /** One-shot over TCP ({@code ipv4@}, {@code ipv6@} sockets). */
    static String send(SocketAddress tcp, String line) throws IOException {
        return send(open(tcp), line);
    }

    /**
     * Sends {@code line} again every 100 ms (20 s at most) until the answer has a match of {@code p}; returns that
     * answer, or fails with the last one.
     */
    static String await(Path unixSocket, String line, Pattern p) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String last;
        do {
            last = send(unixSocket, line);
            if (p.matcher(last).find()) {
                return last;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no match of " + p + " in " + unixSocket.getFileName() + "'s " + line + ":\n" + last);
    }

    private static String send(CliClient client, String line) throws IOException {
        try (CliClient c = client) {
            c.write(line + "\n");
            c.channel.shutdownOutput();
            return c.readAll();
        }
    }

    /** Shuts the client's side, as socat does at the end of its input. */
    void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    void write(String text) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** Reads until the answer ends with {@code end} (a prompt "\n> "); returns it without the end. */
    String readUntil(String end) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8192);
        while (!pending.toString(StandardCharsets.UTF_8).endsWith(end)) {
            b.clear();
            if (channel.read(b) < 0) {
                throw new IOException("closed before \"" + end + "\"; got: " + pending.toString(StandardCharsets.UTF_8));
            }
            pending.write(b.array(), 0, b.position());
        }
        String s = pending.toString(StandardCharsets.UTF_8);
        pending.reset();
        return s.substring(0, s.length() - end.length());
    }

    /** Everything until the server closes. */
    String readAll() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8192);
        while (true) {
            b.clear();
            int n = channel.read(b);
            if (n < 0) {
                String s = pending.toString(StandardCharsets.UTF_8);
                pending.reset();
                return s;
            }
            pending.write(b.array(), 0, b.position());
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
