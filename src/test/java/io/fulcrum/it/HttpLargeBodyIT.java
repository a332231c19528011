package io.fulcrum.it;

import io.fulcrum.it.HttpWire.Body;
import io.fulcrum.it.HttpWire.Head;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static io.fulcrum.it.HttpKit.config;
import static io.fulcrum.it.HttpKit.serve;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 200 MB bodies each way, in both framings, checked byte by byte against a pattern stream. The proxy must
 * stream them with back-pressure: when the receiver stops reading, the sender ends up blocked after a bounded
 * amount (the socket buffers and a little more) instead of the proxy taking everything into memory.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HttpLargeBodyIT {
    private static final long SIZE = 200L << 20;
    /** What may sit in the socket buffers on the way (autotuned loopback buffers are a few MB each) and in the proxy. */
    private static final long BOUND = 48L << 20;

    /** Writes {@code count} bytes of the pattern {@code seed}, in chunked framing if {@code chunked}. */
    private static void writePattern(OutputStream os, long seed, long count, boolean chunked, AtomicLong written)
            throws IOException {
        PatternStream p = new PatternStream(seed);
        byte[] buf = new byte[64 * 1024];
        long left = count;
        while (left > 0) {
            int n = (int) Math.min(left, buf.length);
            p.next(buf, 0, n);
            if (chunked) {
                os.write(HttpWire.bytes(Integer.toHexString(n) + "\r\n"));
            }
            os.write(buf, 0, n);
            if (chunked) {
                os.write('\r');
                os.write('\n');
            }
            left -= n;
            written.addAndGet(n);
        }
        if (chunked) {
            os.write(HttpWire.bytes("0\r\nX-Sent: " + count + "\r\n\r\n"));
        }
        os.flush();
    }

    /** Reads {@code in} to its end, checking each byte against the pattern; returns {count, first mismatch or -1}. */
    private static long[] checkPattern(InputStream in, long seed) throws IOException {
        PatternStream expected = new PatternStream(seed);
        byte[] buf = new byte[256 * 1024];
        byte[] exp = new byte[buf.length];
        long count = 0;
        long mismatch = -1;
        int n;
        while ((n = in.read(buf, 0, buf.length)) >= 0) {
            if (mismatch < 0) {
                expected.next(exp, 0, n);
                int at = Arrays.mismatch(buf, 0, n, exp, 0, n);
                if (at >= 0) {
                    mismatch = count + at;
                }
            }
            count += n;
        }
        return new long[] {count, mismatch};
    }

    /** Waits until {@code progress} has started and then not moved for a second (bounded); returns its value then. */
    private static long awaitStall(LongSupplier progress, long total) throws InterruptedException {
        long last = -1;
        long stableSince = System.nanoTime();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && progress.getAsLong() < total) {
            long now = progress.getAsLong();
            if (now != last) {
                last = now;
                stableSince = System.nanoTime();
            } else if (now > 0 && System.nanoTime() - stableSince > 1_000_000_000L) { // (a loaded box may take a while to start)
                break;
            }
            Thread.sleep(100);
        }
        return progress.getAsLong();
    }

    private static String timeouts() {
        return "timeout client 60s\ntimeout server 60s";
    }

    private void upload(boolean chunked) throws Exception {
        long seed = chunked ? 11 : 12;
        CountDownLatch mayRead = new CountDownLatch(1);
        CompletableFuture<long[]> atOrigin = new CompletableFuture<>();
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 if (!mayRead.await(90, TimeUnit.SECONDS)) {
                     return;
                 }
                 long[] got = checkPattern(x.body, seed);
                 atOrigin.complete(new long[] {got[0], got[1], x.body.crc()});
                 x.reply(200, "received " + got[0], "X-Trailers: " + x.body.trailers());
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), timeouts()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.socket.setSoTimeout(90_000);
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    c.send("POST /upload HTTP/1.1\r\nHost: test\r\n"
                            + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + SIZE + "\r\n") + "\r\n");
                    writePattern(c.out(), seed, SIZE, chunked, written);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, r -> Thread.ofPlatform().daemon().start(r));
            long stalledAt = awaitStall(written::get, SIZE);
            mayRead.countDown();
            assertThat(stalledAt).as("bytes the client could send while the origin read nothing")
                    .isGreaterThan(0).isLessThan(BOUND);
            writer.get(120, TimeUnit.SECONDS);
            long[] got = atOrigin.get(120, TimeUnit.SECONDS);
            assertThat(got[1]).as("first corrupted byte").isEqualTo(-1);
            assertThat(got[0]).isEqualTo(SIZE);
            HttpClientConn.Response r = c.read();
            assertThat(r.bodyText()).isEqualTo("received " + SIZE);
            if (chunked) {
                assertThat(r.get("x-trailers").toLowerCase()).isEqualTo("[x-sent: " + SIZE + "]");
            }
        }
    }

    private void download(boolean chunked) throws Exception {
        long seed = chunked ? 21 : 22;
        AtomicLong written = new AtomicLong();
        int fe = freePort();
        try (HttpOrigin origin = HttpOrigin.start(x -> {
                 x.send("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                         + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + SIZE + "\r\n") + "\r\n");
                 writePattern(x.out, seed, SIZE, chunked, written);
             });
             FulcrumProcess proxy = serve(config(fe, origin.port(), timeouts()), fe);
             HttpClientConn c = HttpClientConn.open(fe)) {
            c.socket.setSoTimeout(90_000);
            c.send("GET /download HTTP/1.1\r\nHost: test\r\nTE: trailers\r\n\r\n");
            // Read nothing: the origin must end up blocked.
            long stalledAt = awaitStall(written::get, SIZE);
            assertThat(stalledAt).as("bytes the origin could send while the client read nothing")
                    .isGreaterThan(0).isLessThan(BOUND);
            Head h = c.readHead();
            assertThat(HttpWire.status(h)).isEqualTo(200);
            Body body = c.body(h, "GET");
            long[] got = checkPattern(body, seed);
            assertThat(got[1]).as("first corrupted byte").isEqualTo(-1);
            assertThat(got[0]).isEqualTo(SIZE);
            if (chunked) {
                assertThat(h.get("transfer-encoding")).isEqualToIgnoringCase("chunked");
                assertThat(body.trailers()).extracting(f -> f.name().toLowerCase() + "=" + f.value())
                        .containsExactly("x-sent=" + SIZE);
            } else {
                assertThat(h.get("content-length")).isEqualTo(Long.toString(SIZE));
            }
            // The connection is still good for another request.
            c.send("GET /download HTTP/1.1\r\nHost: test\r\n\r\n");
            Head h2 = c.readHead();
            assertThat(checkPattern(c.body(h2, "GET"), seed)[0]).isEqualTo(SIZE);
        }
    }

    @Test
    void uploadWithContentLength() throws Exception {
        upload(false);
    }

    @Test
    void uploadChunked() throws Exception {
        upload(true);
    }

    @Test
    void downloadWithContentLength() throws Exception {
        download(false);
    }

    @Test
    void downloadChunked() throws Exception {
        download(true);
    }
}
