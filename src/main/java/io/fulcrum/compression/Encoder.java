package io.fulcrum.compression;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses one response body as it streams: each piece of data that arrives goes out compressed and flushed (a
 * sync flush: the client can decode all it got, latency stays that of the server), never the whole body at once.
 * Owns a native zlib stream: {@link #close()} it on every path.
 */
public final class Encoder {
    /** The gzip member header: magic, deflate, no flags, no time, no extra flags, Unix. */
    private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    private static final byte[] NO_INPUT = new byte[0];

    private final Deflater deflater;
    /** The checksum of the uncompressed data, for gzip only. */
    private final CRC32 crc;
    private boolean headerSent;
    /** {@code tune.comp.maxlevel}, and the level now: lower while compression is over its limits. */
    private final int maxLevel;
    private int level;
    /** The zlib stream was freed (and its memory given back): once only, whatever the paths that close it. */
    private boolean closed;

    private Encoder(Algo algo, int level) {
        this.deflater = algo == Algo.IDENTITY ? null : new Deflater(level, algo != Algo.DEFLATE);
        if (deflater != null) {
            ZlibMemory.take();
        }
        this.crc = algo == Algo.GZIP ? new CRC32() : null;
        this.headerSent = crc == null;
        this.maxLevel = level;
        this.level = level;
    }

    /** @param level zlib's, 1 to 9 ({@code tune.comp.maxlevel}): the level it starts with, and its highest */
    public static Encoder of(Algo algo, int level) {
        return new Encoder(algo, level);
    }

    /** {@code in}, compressed: the caller's buffer to write, or null when there is nothing to send yet. Takes {@code in}. */
    public ByteBuf encode(ByteBuf in, ByteBufAllocator alloc) {
        if (deflater == null) {
            return in;
        }
        int submitted = in.readableBytes();
        ByteBuf out = alloc.buffer(submitted / 2 + 64);
        try {
            header(out);
            for (ByteBuffer b : in.nioBuffers()) {
                if (crc != null) {
                    crc.update(b.duplicate());
                }
                deflater.setInput(b);
                drain(out, Deflater.NO_FLUSH);
            }
            drain(out, Deflater.SYNC_FLUSH);
            CompressionRate.counted(submitted, out.readableBytes());
            stepLevel(out);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            deflater.setInput(NO_INPUT);
            in.release();
        }
        return sent(out);
    }

    /** The end of the compressed stream (and the gzip trailer), or null for identity. Closes the encoder. */
    public ByteBuf finish(ByteBufAllocator alloc) {
        if (deflater == null) {
            return null;
        }
        ByteBuf out = alloc.buffer(64);
        try {
            header(out);
            deflater.finish();
            drain(out, Deflater.NO_FLUSH);
            if (crc != null) {
                out.writeIntLE((int) crc.getValue());
                out.writeIntLE((int) deflater.getBytesRead());
            }
        } catch (RuntimeException e) {
            out.release();
            throw e;
        } finally {
            close();
        }
        return out;
    }

    /**
     * After each flushed piece, as HAProxy's zlib: one level down (0: stored, not compressed) while the output rate
     * or the CPU usage is above its limit ({@code maxcomprate}, {@code maxcompcpuusage}), else one up to the
     * highest. The next piece is deflated at the new level: the change is made now, while no input is pending (zlib
     * would deflate the next piece at the old level first).
     */
    private void stepLevel(ByteBuf out) {
        int next = CompressionRate.backOff() ? Math.max(0, level - 1) : Math.min(maxLevel, level + 1);
        if (next != level) {
            level = next;
            deflater.setLevel(next);
            drain(out, Deflater.NO_FLUSH);
        }
    }

    /** The zlib level the next piece is deflated at. */
    int level() {
        return level;
    }

    /** Frees the zlib stream (the transaction ended, with or without the body's end). */
    public void close() {
        if (deflater != null && !closed) {
            closed = true;
            deflater.end();
            ZlibMemory.release();
        }
    }

    private void header(ByteBuf out) {
        if (!headerSent) {
            out.writeBytes(GZIP_HEADER);
            headerSent = true;
        }
    }

    /**
     * Deflates what the input holds into {@code out}, growing it until the deflater leaves room: then all the input
     * is taken and, with a flush, all of it is out.
     */
    private void drain(ByteBuf out, int flush) {
        while (true) {
            out.ensureWritable(256);
            int room = out.writableBytes();
            ByteBuffer nio = out.nioBuffer(out.writerIndex(), room);
            int n = deflater.deflate(nio, flush);
            out.writerIndex(out.writerIndex() + n);
            if (n < room && (deflater.needsInput() || deflater.finished())) {
                return;
            }
        }
    }

    private static ByteBuf sent(ByteBuf out) {
        if (out.isReadable()) {
            return out;
        }
        out.release();
        return null;
    }
}
