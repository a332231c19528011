package io.fulcrum.log;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a ring's messages to one of its {@code server}s over TCP or a unix stream socket, framed as syslog over TCP: each followed by a
 * newline ({@code log-proto legacy}) or preceded by its length and a space ({@code octet-count}, RFC 6587).
 * Runs on a thread of its own; reconnects a second after a failure. While connected, what the server has not taken
 * stays in the ring (this forwarder pins it), so that a server that does not keep up makes new messages drop; while
 * not, the ring goes on as if it had no server, as in HAProxy.
 */
final class RingForwarder implements AutoCloseable {
    private static final long RETRY_MILLIS = 1000;
    private static final int BATCH = 64;

    private final Ring ring;
    private final RingSpec.Server server;
    /** Milliseconds; 0: wait as long as it takes. */
    private final long connectTimeout;
    private final long serverTimeout;
    private final Ring.Cursor cursor;
    private volatile boolean closed;
    private Thread thread;

    RingForwarder(Ring ring, RingSpec.Server server, long connectTimeout, long serverTimeout) {
        this.ring = ring;
        this.server = server;
        this.connectTimeout = connectTimeout;
        this.serverTimeout = serverTimeout;
        this.cursor = ring.cursor(false);
    }

    void start() {
        thread = Thread.ofVirtual().name("fulcrum-ring-" + ring.name() + "/" + server.name()).start(this::run);
    }

    private void run() {
        List<byte[]> pending = new ArrayList<>();
        while (!closed) {
            try (Selector selector = Selector.open(); SocketChannel ch = connect(selector)) {
                ring.pin(cursor);
                forward(ch, selector, pending);
            } catch (ClosedByInterruptException e) {
                return;
            } catch (IOException e) {
                // the server is gone or too slow: try again
            } catch (InterruptedException e) {
                return;
            } finally {
                ring.release(cursor);
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private SocketChannel connect(Selector selector) throws IOException {
        SocketChannel ch = server.address() instanceof UnixDomainSocketAddress ? SocketChannel.open(StandardProtocolFamily.UNIX)
                : SocketChannel.open();
        try {
            ch.configureBlocking(false);
            if (!ch.connect(server.address())) {
                SelectionKey key = ch.register(selector, SelectionKey.OP_CONNECT);
                if (selector.select(connectTimeout) == 0 || !ch.finishConnect()) {
                    throw new SocketTimeoutException("timeout connect");
                }
                selector.selectedKeys().clear();
                key.interestOps(0);
            }
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Sends the ring's messages until the connection fails; those of {@code pending} are not sent yet. */
    private void forward(SocketChannel ch, Selector selector, List<byte[]> pending) throws IOException, InterruptedException {
        SelectionKey key = ch.keyFor(selector) != null ? ch.keyFor(selector) : ch.register(selector, 0);
        ByteBuffer discard = ByteBuffer.allocate(4096);
        while (!closed) {
            if (pending.isEmpty()) {
                ring.read(cursor, pending, BATCH, RETRY_MILLIS);
            }
            // What the server says is ignored; its closing ends the connection.
            discard.clear();
            if (ch.read(discard) < 0) {
                throw new EOFException();
            }
            if (pending.isEmpty()) {
                continue;
            }
            ByteBuffer out = frames(pending);
            while (out.hasRemaining()) {
                if (ch.write(out) == 0) {
                    key.interestOps(SelectionKey.OP_WRITE);
                    if (selector.select(serverTimeout) == 0) {
                        throw new SocketTimeoutException("timeout server");
                    }
                    selector.selectedKeys().clear();
                }
            }
            pending.clear();
        }
    }

    private ByteBuffer frames(List<byte[]> messages) {
        int size = 0;
        for (byte[] m : messages) {
            size += m.length + 12;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (byte[] m : messages) {
            if (server.octetCount()) {
                out.put(Integer.toString(m.length).getBytes(StandardCharsets.US_ASCII)).put((byte) ' ').put(m);
            } else {
                out.put(m).put((byte) '\n');
            }
        }
        return out.flip();
    }

    @Override
    public void close() {
        closed = true;
        ring.release(cursor);
        if (thread != null) {
            thread.interrupt();
        }
    }
}
