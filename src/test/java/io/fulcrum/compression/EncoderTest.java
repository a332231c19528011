package io.fulcrum.compression;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import static org.assertj.core.api.Assertions.assertThat;

class EncoderTest {
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

    /** Half random bytes (incompressible), half repeated text, in pieces of various sizes and kinds of buffers. */
    private static byte[] sample() {
        byte[] b = new byte[300_000];
        new Random(7).nextBytes(b);
        byte[] text = "compress me please, ".getBytes();
        for (int i = b.length / 2; i < b.length; i++) {
            b[i] = text[i % text.length];
        }
        return b;
    }

    /** Streams {@code data} through an encoder in pieces; each piece's output is decodable as it comes (sync flush). */
    private byte[] encode(Algo algo, byte[] data) {
        return encode(algo, 1, data);
    }

    private byte[] encode(Algo algo, int level, byte[] data) {
        Encoder e = Encoder.of(algo, level);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] sizes = {1, 100, 70_000, 5, 40_000};
        int off = 0;
        for (int k = 0; off < data.length; k++) {
            int n = Math.min(sizes[k % sizes.length], data.length - off);
            ByteBuf in = k % 3 == 0 ? alloc.directBuffer(n) : k % 3 == 1 ? Unpooled.buffer(n) : null;
            if (in == null) {
                CompositeByteBuf c = alloc.compositeBuffer();
                int half = n / 2;
                c.addComponent(true, Unpooled.wrappedBuffer(data, off, half));
                c.addComponent(true, alloc.directBuffer(n - half).writeBytes(data, off + half, n - half));
                in = c;
            } else {
                in.writeBytes(data, off, n);
            }
            off += n;
            ByteBuf o = e.encode(in, alloc);
            assertThat(in.refCnt()).isZero();
            if (o != null) {
                out.writeBytes(ByteBufUtil.getBytes(o));
                o.release();
            }
        }
        ByteBuf tail = e.finish(alloc);
        if (tail != null) {
            out.writeBytes(ByteBufUtil.getBytes(tail));
            tail.release();
        }
        e.close();
        return out.toByteArray();
    }

    private static byte[] decode(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    @Test
    void gzip() throws IOException {
        byte[] data = sample();
        byte[] z = encode(Algo.GZIP, data);
        assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(z)))).isEqualTo(data);
    }

    @Test
    void deflateIsZlib() throws IOException {
        byte[] data = sample();
        assertThat(decode(new InflaterInputStream(new ByteArrayInputStream(encode(Algo.DEFLATE, data))))).isEqualTo(data);
    }

    @Test
    void rawDeflate() throws IOException {
        byte[] data = sample();
        byte[] z = encode(Algo.RAW_DEFLATE, data);
        assertThat(decode(new InflaterInputStream(new ByteArrayInputStream(z), new Inflater(true)))).isEqualTo(data);
    }

    /** {@code tune.comp.maxlevel}: a higher level packs text tighter, and still decodes. */
    @Test
    void higherLevelPacksTighter() throws IOException {
        StringBuilder text = new StringBuilder();
        Random r = new Random(3);
        String[] words = {"proxy", "server", "backend", "frontend", "request", "response", "header", "body"};
        while (text.length() < 200_000) {
            text.append(words[r.nextInt(words.length)]).append(r.nextInt(100)).append(' ');
        }
        byte[] data = text.toString().getBytes();
        byte[] fast = encode(Algo.GZIP, 1, data);
        byte[] best = encode(Algo.GZIP, 9, data);
        assertThat(best.length).isLessThan(fast.length);
        assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(best)))).isEqualTo(data);
    }

    @Test
    void identityPassesTheBuffersOn() {
        Encoder e = Encoder.of(Algo.IDENTITY, 1);
        ByteBuf in = Unpooled.copiedBuffer(new byte[] {1, 2, 3});
        assertThat(e.encode(in, alloc)).isSameAs(in);
        in.release();
        assertThat(e.finish(alloc)).isNull();
    }

    /** An empty body still makes a valid gzip stream. */
    @Test
    void emptyGzip() throws IOException {
        assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(encode(Algo.GZIP, new byte[0]))))).isEmpty();
    }

    /** What a piece gives is decodable at once: the client is not kept waiting for the rest. */
    @Test
    void eachPieceIsFlushed() throws IOException {
        Encoder e = Encoder.of(Algo.RAW_DEFLATE, 1);
        ByteBuf o = e.encode(Unpooled.copiedBuffer("hello, world".getBytes()), alloc);
        byte[] z = ByteBufUtil.getBytes(o);
        o.release();
        Inflater inf = new Inflater(true);
        inf.setInput(z);
        byte[] got = new byte[64];
        int n;
        try {
            n = inf.inflate(got);
        } catch (java.util.zip.DataFormatException ex) {
            throw new IOException(ex);
        } finally {
            inf.end();
            e.close();
        }
        assertThat(new String(got, 0, n)).isEqualTo("hello, world");
    }

    /**
     * {@code maxcomprate}: above the limit, each piece steps the level down, to 0 (stored: the output outgrows the
     * input); under it, back up to the highest. (A limit of 1 byte a second: any output is above it.)
     */
    @Test
    void theLevelStepsDownAboveTheRateLimitAndBackUpUnderIt() throws IOException {
        byte[] text = "compress me please, ".repeat(3000).getBytes();
        Encoder e = Encoder.of(Algo.GZIP, 2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] levels = new int[6];
        int[] sizes = new int[6];
        try {
            CompressionRate.limit(1);
            for (int k = 0; k < 6; k++) {
                if (k == 4) {
                    CompressionRate.limit(0);
                }
                ByteBuf o = e.encode(Unpooled.wrappedBuffer(text), alloc);
                sizes[k] = o.readableBytes();
                o.readBytes(out, o.readableBytes());
                o.release();
                levels[k] = e.level();
            }
            ByteBuf end = e.finish(alloc);
            end.readBytes(out, end.readableBytes());
            end.release();
        } finally {
            CompressionRate.limit(0);
            e.close();
        }
        assertThat(levels).containsExactly(1, 0, 0, 0, 1, 2);
        assertThat(sizes[0]).isLessThan(text.length / 20);
        assertThat(sizes[2]).as("stored").isGreaterThan(text.length);
        assertThat(sizes[5]).isLessThan(text.length / 20);
        assertThat(decode(new GZIPInputStream(new ByteArrayInputStream(out.toByteArray())))).hasSize(6 * text.length);
    }
}
