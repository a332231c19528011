package io.fulcrum.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test origin server on 127.0.0.1: a real listening socket, one virtual thread per accepted
 * connection running a {@link Handler}. Counts the connections it accepted, the ones open now and the
 * most that were open at once; closes each socket when its handler returns.
 */
final class Origin implements AutoCloseable {

    /** What the origin does with one accepted connection. */
    @FunctionalInterface
    interface Handler {
        void handle(Socket s) throws Exception;
    }

    /** Sends back every byte it reads; on EOF shuts its output (half-close), then returns. */
    static final Handler ECHO = s -> {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] b = new byte[64 * 1024];
        int n;
        while ((n = in.read(b)) > 0) {
            out.write(b, 0, n);
        }
        s.shutdownOutput();
    };

    private final ServerSocket server;
    private final Handler handler;
    private final Thread acceptor;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private Origin(ServerSocket server, Handler handler) {
        this.server = server;
        this.handler = handler;
        this.acceptor = Thread.ofPlatform().daemon().name("origin-accept-" + server.getLocalPort()).start(this::acceptLoop);
    }

    /** An origin on a free port of 127.0.0.1. */
    static Origin start(Handler handler) throws IOException {
        return start(0, handler);
    }

    /** An origin on {@code port} of 127.0.0.1 (0: any free port), with a backlog large enough for bursts. */
    static Origin start(int port, Handler handler) throws IOException {
        return start("127.0.0.1", port, handler);
    }

    static Origin start(String host, int port, Handler handler) throws IOException {
        ServerSocket ss = new ServerSocket();
        ss.setReuseAddress(true);
        ss.bind(new InetSocketAddress(InetAddress.getByName(host), port), 4096);
        return new Origin(ss, handler);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted since the start (or the last {@link #resetCounts}). */
    int accepted() {
        return accepted.get();
    }

    /** Connections whose handler is still running. */
    int open() {
        return open.get();
    }

    /** The most connections open at the same time. */
    int peak() {
        return peak.get();
    }

    /** Exceptions the handlers threw (a reset by the proxy is one), for failure messages. */
    List<Throwable> errors() {
        return errors;
    }

    /**
     * Lets a readiness probe's connection arrive and end (bounded wait), then zeroes the counters, so
     * that they count the test's connections only. (The TcpProxy*IT tests wait for the proxy's listening
     * socket without connecting, and do not need this.)
     */
    void resetCounts(long maxWaitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
        Thread.sleep(200);
        while (open.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        accepted.set(0);
        peak.set(open.get());
        errors.clear();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    errors.add(e);
                }
                return;
            }
            accepted.incrementAndGet();
            int now = open.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            sockets.add(s);
            Thread.ofVirtual().name("origin-conn").start(() -> {
                try {
                    handler.handle(s);
                } catch (Throwable t) {
                    errors.add(t);
                } finally {
                    sockets.remove(s);
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing anyway
                    }
                    open.decrementAndGet();
                }
            });
        }
    }

    /** Closes the listening socket and every connection still open. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (SocketException ignored) {
                // already gone
            }
        }
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
