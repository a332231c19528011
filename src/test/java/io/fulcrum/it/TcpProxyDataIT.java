package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static io.fulcrum.it.TcpProxyKit.awaitClosed;
import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.echo;
import static io.fulcrum.it.TcpProxyKit.HELLO;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readHello;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bytes through a {@code mode tcp} proxy: integrity of large streams both ways, half-closes forwarded
 * in both directions, many concurrent connections, a server reset, and back-pressure.
 */
class TcpProxyDataIT {
    private static final long GIB = 1L << 30;
    /** What the second side to half-close still sends after it saw the other side's EOF. */
    private static final int TAIL = 16 << 20;

    private static String config(int fe, int be) {
        return """
                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 60s
                    timeout server 60s

                listen test
                    bind 127.0.0.1:%d
                    server s1 127.0.0.1:%d
                """.formatted(fe, be);
    }

    /** What one end of a connection sent and received. */
    record Transfer(long sent, long sentCrc, long received, long receivedCrc, long firstMismatch) {
    }

    /**
     * Sends {@code size} bytes of the stream {@code seedOut} then shuts its output, while reading until
     * EOF and checking each byte against the stream {@code seedIn}. With {@code holdTail}, the last
     * {@link #TAIL} bytes are sent only after the peer's EOF was read: they cross a half-closed connection.
     */
    static Transfer exchange(Socket s, long seedOut, long seedIn, long size, boolean holdTail) throws Exception {
        s.setSoTimeout(60_000);
        CountDownLatch eof = new CountDownLatch(1);
        FutureTask<long[]> reader = new FutureTask<>(() -> receive(s, seedIn, eof));
        Thread.ofPlatform().daemon().name("reader").start(reader);
        PatternStream out = new PatternStream(seedOut);
        CRC32 crc = new CRC32();
        byte[] buf = new byte[256 * 1024];
        OutputStream os = s.getOutputStream();
        sendPattern(os, out, crc, holdTail ? size - TAIL : size, buf);
        if (holdTail) {
            if (!eof.await(90, TimeUnit.SECONDS)) {
                throw new AssertionError("no EOF from the peer after it sent everything");
            }
            sendPattern(os, out, crc, TAIL, buf);
        }
        s.shutdownOutput();
        long[] in = reader.get(90, TimeUnit.SECONDS);
        return new Transfer(out.position(), crc.getValue(), in[0], in[1], in[2]);
    }

    private static void sendPattern(OutputStream os, PatternStream out, CRC32 crc, long count, byte[] buf) throws IOException {
        long left = count;
        while (left > 0) {
            int n = (int) Math.min(buf.length, left);
            out.next(buf, 0, n);
            crc.update(buf, 0, n);
            os.write(buf, 0, n);
            left -= n;
        }
    }

    /** Reads to EOF; returns {bytes, CRC32, offset of the first byte that differs from the stream or -1}. */
    private static long[] receive(Socket s, long seed, CountDownLatch eof) throws IOException {
        InputStream in = s.getInputStream();
        PatternStream expected = new PatternStream(seed);
        CRC32 crc = new CRC32();
        byte[] buf = new byte[256 * 1024];
        byte[] exp = new byte[buf.length];
        long count = 0;
        long mismatch = -1;
        int n;
        while ((n = in.read(buf)) >= 0) {
            crc.update(buf, 0, n);
            if (mismatch < 0) {
                expected.next(exp, 0, n);
                int at = Arrays.mismatch(buf, 0, n, exp, 0, n);
                if (at >= 0) {
                    mismatch = count + at;
                }
            }
            count += n;
        }
        eof.countDown();
        return new long[] {count, crc.getValue(), mismatch};
    }

    /**
     * 1 GiB each way at the same time. The first side to finish shuts its output; the other must see EOF,
     * and then still sends its last 16 MiB over the half-closed connection before shutting its own.
     */
    @ParameterizedTest(name = "client half-closes first: {0}")
    @ValueSource(booleans = {true, false})
    @Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void oneGibibyteEachWayIntactWithHalfCloses(boolean clientFirst) throws Exception {
        long c2s = 0x5EED_C2C2L;
        long s2c = 0x5EED_5C5CL;
        CompletableFuture<Transfer> atServer = new CompletableFuture<>();
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return; // the readiness probe
                 }
                 try {
                     atServer.complete(exchange(s, s2c, c2s, GIB, clientFirst));
                 } catch (Throwable t) {
                     atServer.completeExceptionally(t);
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            Transfer atClient;
            try (Socket s = connect(fe)) {
                send(s, HELLO);
                atClient = exchange(s, c2s, s2c, GIB, !clientFirst);
            } catch (Throwable t) {
                try {
                    atServer.get(5, TimeUnit.SECONDS);
                } catch (Throwable serverSide) {
                    t.addSuppressed(serverSide);
                }
                throw t;
            }
            Transfer server = atServer.get(90, TimeUnit.SECONDS);

            assertThat(atClient.sent()).isEqualTo(GIB);
            assertThat(server.sent()).isEqualTo(GIB);
            assertThat(server.firstMismatch()).as("first corrupted byte client->server").isEqualTo(-1);
            assertThat(atClient.firstMismatch()).as("first corrupted byte server->client").isEqualTo(-1);
            assertThat(server.received()).as("bytes client->server").isEqualTo(GIB);
            assertThat(atClient.received()).as("bytes server->client").isEqualTo(GIB);
            assertThat(server.receivedCrc()).as("CRC32 client->server").isEqualTo(atClient.sentCrc());
            assertThat(atClient.receivedCrc()).as("CRC32 server->client").isEqualTo(server.sentCrc());
            assertThat(proxy.isAlive()).isTrue();
        }
    }

    /** The client shuts its output; the server sees EOF, then still replies and closes. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void clientHalfCloseThenServerReplies() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 String request = readToEof(s, 1000); // needs the client's FIN, forwarded
                 Thread.sleep(200);
                 send(s, "reply to " + request);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            send(s, "request");
            s.shutdownOutput();
            assertThat(readToEof(s, 1000)).isEqualTo("reply to request");
        }
    }

    /** The server shuts its output first; the client sees EOF, then still sends, and the server gets it. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void serverHalfCloseThenClientSends() throws Exception {
        int fe = freePort();
        CompletableFuture<String> received = new CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 send(s, "banner");
                 s.shutdownOutput();
                 String got = readToEof(s, 1000);
                 if (!got.isEmpty()) {
                     received.complete(got);
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            assertThat(readToEof(s, 1000)).isEqualTo("banner");
            Thread.sleep(200);
            send(s, "sent after EOF");
            s.shutdownOutput();
            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo("sent after EOF");
        }
    }

    /** Reads to EOF, checking every byte against the stream {@code seed}; returns {bytes, first mismatch or -1}. */
    private static long[] receivePattern(Socket s, long seed) throws IOException {
        long[] r = receive(s, seed, new CountDownLatch(1));
        return new long[] {r[0], r[2]};
    }

    private static void sendPattern(Socket s, long seed, long count) throws IOException {
        sendPattern(s.getOutputStream(), new PatternStream(seed), new CRC32(), count, new byte[64 * 1024]);
    }

    /**
     * The client sends its request and half-closes; only then, after a pause, the server sends a reply far
     * larger than the socket buffers while the client is not reading yet: the proxy has to wait for the
     * client's socket to drain, on a connection whose input is already shut. Every byte must arrive.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void largeReplyAfterTheClientHalfClosed() throws Exception {
        long size = 32L << 20;
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 String request = readToEof(s, 100);
                 if (request.isEmpty()) {
                     return;
                 }
                 Thread.sleep(200);
                 sendPattern(s, 7, size);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            send(s, "request");
            s.shutdownOutput();
            Thread.sleep(1000); // the reply fills every buffer on the way before the client reads
            long[] got = receivePattern(s, 7);
            assertThat(got[1]).as("first corrupted byte").isEqualTo(-1);
            assertThat(got[0]).as("bytes of the reply").isEqualTo(size);
        }
    }

    /** The mirror case: the server half-closes first, then the client uploads a lot to a server slow to read. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void largeUploadAfterTheServerHalfClosed() throws Exception {
        long size = 32L << 20;
        int fe = freePort();
        CompletableFuture<long[]> atServer = new CompletableFuture<>();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return;
                 }
                 s.shutdownOutput();
                 Thread.sleep(1200); // the upload fills every buffer on the way before the server reads
                 atServer.complete(receivePattern(s, 8));
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            send(s, HELLO);
            assertThat(readToEof(s, 100)).isEmpty();
            Thread.sleep(200);
            sendPattern(s, 8, size);
            s.shutdownOutput();
            long[] got = atServer.get(30, TimeUnit.SECONDS);
            assertThat(got[1]).as("first corrupted byte").isEqualTo(-1);
            assertThat(got[0]).as("bytes of the upload").isEqualTo(size);
        }
    }

    /** 1000 client connections open at the same time, each exchanging a message through the proxy. */
    @Test
    @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void thousandConcurrentConnections() throws Exception {
        int n = 1000;
        int fe = freePort();
        AtomicInteger serving = new AtomicInteger();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return;
                 }
                 serving.incrementAndGet();
                 try {
                     Origin.ECHO.handle(s);
                 } finally {
                     serving.decrementAndGet();
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe)) {
            CountDownLatch exchanged = new CountDownLatch(n);
            CountDownLatch release = new CountDownLatch(1);
            List<Throwable> errors = new CopyOnWriteArrayList<>();
            List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                clients.add(Thread.ofVirtual().start(() -> {
                    try (Socket s = connect(fe)) {
                        s.setSoTimeout(60_000);
                        send(s, HELLO);
                        String msg = "message from connection " + id + "\n";
                        String back = echo(s, msg);
                        if (!back.equals(msg)) {
                            throw new AssertionError("connection " + id + " got '" + back + "'");
                        }
                        exchanged.countDown();
                        release.await(120, TimeUnit.SECONDS);
                        // Still alive at the end: every connection was open at the same time.
                        String again = echo(s, "bye " + id + "\n");
                        if (!again.equals("bye " + id + "\n")) {
                            throw new AssertionError("connection " + id + " got '" + again + "'");
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                        exchanged.countDown();
                    }
                }));
            }
            boolean all = exchanged.await(120, TimeUnit.SECONDS);
            int atOnce = serving.get();
            release.countDown();
            for (Thread t : clients) {
                t.join(60_000);
            }
            assertThat(all).as("every connection exchanged its message in time").isTrue();
            assertThat(errors).as("client errors").isEmpty();
            assertThat(atOnce).as("server connections open at once").isEqualTo(n);
            assertThat(proxy.isAlive()).isTrue();
        }
    }

    /** A server that resets its connection: that client is closed; the other clients carry on. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void serverResetClosesOnlyItsClient() throws Exception {
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 InputStream in = s.getInputStream();
                 OutputStream out = s.getOutputStream();
                 byte[] b = new byte[100];
                 int n;
                 while ((n = in.read(b)) > 0) {
                     if (new String(b, 0, n).startsWith("reset")) {
                         s.setSoLinger(true, 0); // close() sends a RST
                         return;
                     }
                     out.write(b, 0, n);
                 }
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket bystander = connect(fe);
             Socket victim = connect(fe)) {
            assertThat(echo(bystander, "ping")).isEqualTo("ping");
            assertThat(echo(victim, "ping")).isEqualTo("ping");
            send(victim, "reset");
            awaitClosed(victim, 5000);
            assertThat(echo(bystander, "still here")).isEqualTo("still here");
            try (Socket other = connect(fe)) {
                assertThat(echo(other, "new one")).isEqualTo("new one");
            }
        }
    }

    /**
     * A server that does not read: the client must end up blocked (the proxy stops reading it) instead of
     * the proxy buffering everything it is sent; then the server reads, and every byte arrives intact.
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void backPressureBoundsBuffering() throws Exception {
        long total = 512L << 20;
        long seed = 42;
        CountDownLatch serverMayRead = new CountDownLatch(1);
        CompletableFuture<long[]> atServer = new CompletableFuture<>();
        int fe = freePort();
        try (Origin origin = Origin.start(s -> {
                 if (!readHello(s)) {
                     return; // the readiness probe
                 }
                 if (!serverMayRead.await(60, TimeUnit.SECONDS)) {
                     return;
                 }
                 s.setSoTimeout(30_000);
                 InputStream in = s.getInputStream();
                 PatternStream expected = new PatternStream(seed);
                 byte[] buf = new byte[256 * 1024];
                 byte[] exp = new byte[buf.length];
                 long count = 0;
                 long mismatch = -1;
                 int n;
                 while ((n = in.read(buf)) >= 0) {
                     expected.next(exp, 0, n);
                     int at = Arrays.mismatch(buf, 0, n, exp, 0, n);
                     if (at >= 0 && mismatch < 0) {
                         mismatch = count + at;
                     }
                     count += n;
                 }
                 atServer.complete(new long[] {count, mismatch});
             });
             FulcrumProcess proxy = serve(config(fe, origin.port()), fe);
             Socket s = connect(fe)) {
            send(s, HELLO);
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    PatternStream out = new PatternStream(seed);
                    byte[] buf = new byte[64 * 1024];
                    OutputStream os = s.getOutputStream();
                    while (written.get() < total) {
                        int n = (int) Math.min(buf.length, total - written.get());
                        out.next(buf, 0, n);
                        os.write(buf, 0, n);
                        written.addAndGet(n);
                    }
                    s.shutdownOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, runnable -> Thread.ofPlatform().daemon().start(runnable));
            // Wait until the writer is blocked: no progress for a whole second.
            long last = -1;
            long stableSince = System.nanoTime();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline && written.get() < total) {
                long now = written.get();
                if (now != last) {
                    last = now;
                    stableSince = System.nanoTime();
                } else if (System.nanoTime() - stableSince > 1_000_000_000L) {
                    break;
                }
                Thread.sleep(100);
            }
            long stalledAt = written.get();
            serverMayRead.countDown();
            assertThat(stalledAt).as("bytes the client could write while the server read nothing")
                    .isGreaterThan(0).isLessThan(128L << 20);
            long[] got = atServer.get(90, TimeUnit.SECONDS);
            writer.get(30, TimeUnit.SECONDS);
            assertThat(got[1]).as("first corrupted byte").isEqualTo(-1);
            assertThat(got[0]).isEqualTo(total);
        }
    }
}
