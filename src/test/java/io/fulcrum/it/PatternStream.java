package io.fulcrum.it;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A deterministic pseudo-random byte stream (SplitMix64 of the word index), generated in pieces of any
 * length: a sender and a receiver built with the same seed produce the same bytes, so a receiver can
 * check every byte it gets, at the offset it gets it, without anyone buffering the whole stream.
 */
final class PatternStream {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long seed;
    private long position;

    PatternStream(long seed) {
        this.seed = seed;
    }

    /** Bytes generated so far. */
    long position() {
        return position;
    }

    /** Writes the next {@code len} bytes of the stream into {@code dst}. */
    void next(byte[] dst, int off, int len) {
        int end = off + len;
        while (off < end && (position & 7) != 0) {
            dst[off++] = byteAt(position++);
        }
        while (end - off >= 8) {
            LONG.set(dst, off, word(position >>> 3));
            off += 8;
            position += 8;
        }
        while (off < end) {
            dst[off++] = byteAt(position++);
        }
    }

    private byte byteAt(long p) {
        return (byte) (word(p >>> 3) >>> ((p & 7) * 8));
    }

    private long word(long index) {
        long z = seed + (index + 1) * GOLDEN;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
