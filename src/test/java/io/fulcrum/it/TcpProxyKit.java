package io.fulcrum.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the TcpProxy*IT tests share: starting the proxy on a config, client sockets, and reads that
 * tell "closed" from "silent" within bounded times.
 *
 * <p>With {@code -Dit.proxy=haproxy} the same tests run against the real HAProxy
 * ({@code -Dit.haproxy=/usr/sbin/haproxy} by default), to check that they test HAProxy's behaviour.
 */
final class TcpProxyKit {
    static final String LOCALHOST = "127.0.0.1";

    private TcpProxyKit() {
    }

    static boolean haproxy() {
        return "haproxy".equals(System.getProperty("it.proxy"));
    }

    /** A configuration with the {@code global} lines and a frontend that answers 200 itself on 127.0.0.1:{@code port}. */
    static String answering(int port, String global) {
        return """
                global
                %s
                defaults
                    mode http
                    timeout client 10s
                frontend fe
                    bind 127.0.0.1:%d
                    http-request return status 200
                """.formatted(global.indent(4), port);
    }

    /** Starts the proxy on {@code config} and waits until 127.0.0.1:{@code port} accepts connections. */
    static FulcrumProcess serve(String config, int port) throws Exception {
        return serve(config, LOCALHOST, port);
    }

    /** Starts the proxy on {@code config} and waits until {@code host:port} accepts connections. */
    static FulcrumProcess serve(String config, String host, int port) throws Exception {
        FulcrumProcess p = start(config);
        try {
            awaitListening(p, host, port, Duration.ofSeconds(60));
        } catch (Throwable t) {
            try {
                p.close();
            } catch (Throwable suppressed) {
                t.addSuppressed(suppressed);
            }
            throw t;
        }
        return p;
    }

    /**
     * Starts the proxy in the foreground on {@code config}, with {@code extraArgs} ({@code -sf <pid>}...), without
     * waiting for anything (a start that must fail).
     */
    static FulcrumProcess start(String config, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("-db", "-f", FulcrumProcess.config(config).toString()));
        args.addAll(List.of(extraArgs));
        return haproxy()
                ? FulcrumProcess.start(List.of(System.getProperty("it.haproxy", "/usr/sbin/haproxy")), args)
                : FulcrumProcess.start(args);
    }

    /**
     * Waits until the proxy has a socket listening on {@code host:port}, read from /proc/net/tcp rather
     * than by connecting: a probe connection would itself go through the proxy to a server, and count in
     * what the tests measure (which server was picked, how many connections a server got). An IPv4 address is also
     * looked for as an IPv4-mapped one in /proc/net/tcp6 (io_uring's sockets are IPv6 ones).
     */
    static void awaitListening(FulcrumProcess p, String host, int port, Duration timeout) throws Exception {
        byte[] ip = InetAddress.getByName(host).getAddress();
        List<String> wanted = new ArrayList<>(List.of(procAddress(ip, port)));
        if (ip.length == 4) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(ip, 0, mapped, 12, 4);
            wanted.add(procAddress(mapped, port));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new AssertionError("proxy exited with " + p.exitValue() + " before listening on " + host + ":" + port
                        + "\nstderr:\n" + p.stderr());
            }
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && wanted.contains(f[1]) && f[3].equals("0A")) { // 0A: LISTEN
                        return;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("proxy not listening on " + host + ":" + port + " after " + timeout + "\nstderr:\n" + p.stderr());
    }

    /** An address as /proc/net/tcp{,6} print it: 32-bit words in host (little-endian) order, then the port. */
    private static String procAddress(byte[] ip, int port) {
        StringBuilder local = new StringBuilder();
        for (int w = 0; w < ip.length; w += 4) {
            local.append(String.format("%02X%02X%02X%02X", ip[w + 3], ip[w + 2], ip[w + 1], ip[w]));
        }
        return local.append(String.format(":%04X", port)).toString();
    }

    /** A client connection to 127.0.0.1:{@code port}; reads give up after 10 s. */
    static Socket connect(int port) throws IOException {
        return connect(LOCALHOST, port);
    }

    static Socket connect(String host, int port) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(InetAddress.getByName(host), port), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static void send(Socket s, String data) throws IOException {
        s.getOutputStream().write(bytes(data));
        s.getOutputStream().flush();
    }

    /** Reads exactly {@code n} bytes; fails on EOF before that. */
    static byte[] readExactly(Socket s, int n) throws IOException {
        byte[] b = s.getInputStream().readNBytes(n);
        if (b.length != n) {
            throw new AssertionError("EOF after " + b.length + " of " + n + " bytes: '" + text(b) + "'");
        }
        return b;
    }

    /** Sends {@code msg} and reads back as many bytes: the echo. */
    static String echo(Socket s, String msg) throws IOException {
        send(s, msg);
        return text(readExactly(s, msg.length()));
    }

    /** Reads until EOF (at most {@code max} bytes). */
    static String readToEof(Socket s, int max) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        int n;
        while ((n = in.read(b)) >= 0) {
            out.write(b, 0, n);
            if (out.size() > max) {
                throw new AssertionError("more than " + max + " bytes before EOF: '" + out.toString(StandardCharsets.ISO_8859_1) + "'");
            }
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Waits until the peer closes {@code s} (EOF or reset) and returns when that was seen, in
     * {@link System#nanoTime()} units. Fails if data arrives, or if it is still open after {@code maxMillis}.
     */
    static long awaitClosed(Socket s, long maxMillis) throws IOException {
        int old = s.getSoTimeout();
        s.setSoTimeout((int) maxMillis);
        try {
            int b = s.getInputStream().read();
            if (b >= 0) {
                throw new AssertionError("expected the connection to be closed, but got data: " + (char) b);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after " + maxMillis + " ms");
        } catch (SocketException e) {
            // reset: closed too
        } finally {
            if (!s.isClosed()) {
                s.setSoTimeout(old);
            }
        }
        return System.nanoTime();
    }

    /** Waits until the peer resets {@code s}, as a close with unread data does; fails on data, an EOF or a timeout. */
    static void awaitReset(Socket s, long maxMillis) throws IOException {
        s.setSoTimeout((int) maxMillis);
        try {
            int b = s.getInputStream().read();
            throw new AssertionError(b < 0 ? "expected a reset, got an EOF" : "expected a reset, got data: " + (char) b);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after " + maxMillis + " ms");
        } catch (SocketException e) {
            if (e.getMessage() == null || !e.getMessage().contains("reset")) {
                throw new AssertionError("expected a reset, got " + e);
            }
        }
    }

    /** Fails if anything (data, EOF or reset) arrives on {@code s} within {@code millis}. */
    static void assertSilent(Socket s, long millis, String what) throws IOException {
        int old = s.getSoTimeout();
        s.setSoTimeout((int) millis);
        try {
            int b = s.getInputStream().read();
            throw new AssertionError(what + ": expected nothing for " + millis + " ms, got " + (b < 0 ? "EOF" : "data '" + (char) b + "'"));
        } catch (SocketTimeoutException expected) {
            // silent, as it should be
        } catch (SocketException e) {
            throw new AssertionError(what + ": expected nothing for " + millis + " ms, got " + e, e);
        } finally {
            s.setSoTimeout(old);
        }
    }

    /** Writes until the connection turns out closed (a reset comes back); fails if it still takes data after 3 s. */
    static void assertWritesFail(Socket s) throws InterruptedException {
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                s.getOutputStream().write('x');
                s.getOutputStream().flush();
            } catch (IOException e) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the connection still accepts writes: not closed");
    }

    static long millisSince(long startNanos, long endNanos) {
        return (endNanos - startNanos) / 1_000_000;
    }

    /** What a test's real client sends first, so that an origin can tell it from the readiness probe. */
    static final String HELLO = "HELLO-IT";

    /** Reads {@link #HELLO}; false on EOF (the readiness probe's connection, which sends nothing). */
    static boolean readHello(Socket s) throws IOException {
        byte[] b = s.getInputStream().readNBytes(HELLO.length());
        if (b.length == 0) {
            return false;
        }
        if (!text(b).equals(HELLO)) {
            throw new AssertionError("expected " + HELLO + ", got '" + text(b) + "'");
        }
        return true;
    }

    /** A port free now on 127.0.0.1. */
    static int freePort() throws IOException {
        return FulcrumProcess.freePort();
    }

    /**
     * Fills the accept queue of {@code server} (backlog 1) with connections it does not accept: once one cannot complete,
     * Linux drops every further SYN until the queue has room again. The connections, their client ends.
     */
    static List<SocketChannel> fillQueue(ServerSocketChannel server) throws IOException, InterruptedException {
        InetSocketAddress at = (InetSocketAddress) server.getLocalAddress();
        List<SocketChannel> fillers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            SocketChannel c = SocketChannel.open();
            c.configureBlocking(false);
            c.connect(new InetSocketAddress(LOCALHOST, at.getPort()));
            long deadline = System.nanoTime() + 300_000_000L;
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                done = c.finishConnect();
                if (!done) {
                    Thread.sleep(5);
                }
            }
            if (!done) {
                c.close();
                return fillers; // the queue is full: SYNs are dropped from now on
            }
            fillers.add(c);
        }
        fillers.forEach(TcpProxyKit::closeQuietly);
        throw new IllegalStateException("could not fill the accept queue of a backlog-1 socket");
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing a client end of ours
        }
    }

    /**
     * A listening socket on 127.0.0.1 that never completes a handshake: its accept queue (backlog 1) is
     * filled and never accepted, so Linux drops every further SYN and connects hang until they time out.
     */
    static final class Blackhole implements AutoCloseable {
        private final ServerSocketChannel server;
        private final List<SocketChannel> fillers;

        Blackhole() throws IOException, InterruptedException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(LOCALHOST, 0), 1);
            try {
                fillers = fillQueue(server);
            } catch (IllegalStateException e) {
                server.close();
                throw e;
            }
        }

        int port() throws IOException {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        @Override
        public void close() throws IOException {
            for (SocketChannel c : fillers) {
                c.close();
            }
            server.close();
        }
    }

    /**
     * A listening socket on 127.0.0.1 whose connects are slow: its accept queue (backlog 1) is kept full, then drained
     * every {@code cycle}, so that a connect whose SYN was dropped meanwhile completes at its retransmission (a second
     * or more after it began); the connection that then comes is given to {@code handler}, and the queue filled again.
     */
    static final class SlowAccept implements AutoCloseable {
        private final ServerSocketChannel server;
        private final Thread thread;

        SlowAccept(Duration cycle, Origin.Handler handler) throws IOException {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(LOCALHOST, 0), 1);
            thread = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (server.isOpen()) {
                        List<SocketChannel> fillers = fillQueue(server);
                        List<Object> ours = new ArrayList<>();
                        for (SocketChannel f : fillers) {
                            ours.add(f.getLocalAddress());
                        }
                        Thread.sleep(cycle.toMillis());
                        SocketChannel c;
                        while (ours.contains((c = server.accept()).getRemoteAddress())) {
                            c.close();
                        }
                        try (Socket s = c.socket()) {
                            handler.handle(s);
                        } catch (Exception e) {
                            // the check went away: the next one is served
                        }
                        fillers.forEach(TcpProxyKit::closeQuietly);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed
                }
            });
        }

        int port() throws IOException {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
            thread.interrupt();
        }
    }
}
