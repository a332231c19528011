package io.fulcrum.compression;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory the compressing responses' zlib streams hold ({@code ZlibMemUsage}) and HAProxy's limit on it,
 * {@code maxzlibmem} ({@code MaxZlibMemUsage}). java.util.zip's Deflater allocates its zlib state natively, out of the
 * JVM's sight, so each stream counts what zlib allocates for it as HAProxy's zlib build counts its allocations: a
 * response that would take the total above the limit is not compressed, as HAProxy's deflateInit2 then fails and the
 * response goes as it is. Process-wide like HAProxy's globals.
 */
public final class ZlibMemory {
    /**
     * What deflateInit2 allocates with the parameters java.util.zip always uses (windowBits 15, memLevel 8): the
     * window (2 << 15 bytes), prev (2 bytes << 15), head (2 bytes << memLevel + 7), pending_buf (4 bytes << memLevel
     * + 6), and the deflate_state structure (about 5.9 kB on 64-bit Linux); plus HAProxy's compression context.
     */
    static final long PER_STREAM = (2L << 15) + (2L << 15) + (2L << 15) + (4L << 14) + 5_952 + 152;

    private static final AtomicLong USED = new AtomicLong();
    /** Bytes; 0 or less: no limit (HAProxy checks {@code maxzlibmem > 0}). */
    private static volatile long limit;

    private ZlibMemory() {
    }

    /** {@code maxzlibmem}, in bytes. */
    static void limit(long bytes) {
        limit = bytes;
    }

    public static long limit() {
        return limit;
    }

    public static long used() {
        return USED.get();
    }

    /**
     * True when one more stream would go above the limit: the response that starts is not compressed. Two loops may
     * both see room for the last stream and go over by one, as HAProxy's threads may (its check is no reservation).
     */
    static boolean full() {
        long max = limit;
        return max > 0 && USED.get() + PER_STREAM > max;
    }

    /** Counts one more stream's memory. */
    static void take() {
        USED.addAndGet(PER_STREAM);
    }

    /** Gives back one stream's memory. */
    static void release() {
        USED.addAndGet(-PER_STREAM);
    }
}
