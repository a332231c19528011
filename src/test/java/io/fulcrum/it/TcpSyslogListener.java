package io.fulcrum.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A syslog server over TCP for tests, on 127.0.0.1: it accepts connections one after the other and keeps what
 * each sends, cut into messages by its framing (octet counting, or a newline after each message).
 */
final class TcpSyslogListener implements AutoCloseable {
    private final ServerSocket server;
    private final boolean octetCount;
    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private final AtomicInteger connections = new AtomicInteger();
    private volatile Socket current;

    private TcpSyslogListener(ServerSocket server, boolean octetCount) {
        this.server = server;
        this.octetCount = octetCount;
        Thread.ofVirtual().name("tcp-syslog-" + server.getLocalPort()).start(this::accept);
    }

    static TcpSyslogListener open(boolean octetCount) throws IOException {
        return new TcpSyslogListener(new ServerSocket(0, 10, InetAddress.getLoopbackAddress()), octetCount);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                connections.incrementAndGet();
                current = s;
                read(s.getInputStream());
            } catch (IOException e) {
                // closed by the test, or by the peer: take the next connection
            }
        }
    }

    private void read(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c; (c = in.read()) >= 0; ) {
            if (!octetCount) {
                if (c == '\n') {
                    messages.add(b.toString());
                    b.setLength(0);
                } else {
                    b.append((char) c);
                }
                continue;
            }
            if (c != ' ') {
                b.append((char) c);
                continue;
            }
            byte[] m = in.readNBytes(Integer.parseInt(b.toString()));
            messages.add(new String(m, StandardCharsets.ISO_8859_1));
            b.setLength(0);
        }
    }

    /** Closes the connection being read (the next one is accepted). */
    void drop() throws IOException {
        Socket s = current;
        if (s != null) {
            s.close();
        }
    }

    /** The next message, waiting up to 10 s for it. */
    String next() throws InterruptedException {
        String m = messages.poll(10, TimeUnit.SECONDS);
        if (m == null) {
            throw new AssertionError("no log message within 10 s");
        }
        return m;
    }

    @Override
    public void close() throws IOException {
        server.close();
        drop();
    }
}
