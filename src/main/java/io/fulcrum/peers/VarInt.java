package io.fulcrum.peers;

import io.netty.buffer.ByteBuf;

/**
 * The peers protocol's encoded integers: below 240 one byte; above, a first byte with its four high bits set carrying
 * the low four bits, then 7 bits per byte, the high bit set on every byte but the last (peers-v2.0.txt, section I).
 * Unsigned 64-bit values; up to 10 bytes.
 */
final class VarInt {
    /** Where the second byte starts to be needed. */
    private static final int TWO_BYTES = 0xf0;
    private static final int STOP = 0x80;

    /** A truncated or overlong integer. */
    static final class Malformed extends Exception {
        Malformed() {
            super("malformed encoded integer", null, false, false);
        }
    }

    private VarInt() {
    }

    static void write(ByteBuf out, long v) {
        if (Long.compareUnsigned(v, TWO_BYTES) < 0) {
            out.writeByte((int) v);
            return;
        }
        out.writeByte((int) v | TWO_BYTES);
        v = (v - TWO_BYTES) >>> 4;
        while (Long.compareUnsigned(v, STOP) >= 0) {
            out.writeByte((int) v | STOP);
            v = (v - STOP) >>> 7;
        }
        out.writeByte((int) v);
    }

    /** The bytes {@link #write} takes for {@code v}. */
    static int size(long v) {
        if (Long.compareUnsigned(v, TWO_BYTES) < 0) {
            return 1;
        }
        int n = 2;
        for (v = (v - TWO_BYTES) >>> 4; Long.compareUnsigned(v, STOP) >= 0; v = (v - STOP) >>> 7) {
            n++;
        }
        return n;
    }

    /** Reads one integer from {@code in}'s reader index up to its writer index. */
    static long read(ByteBuf in) throws Malformed {
        if (!in.isReadable()) {
            throw new Malformed();
        }
        long v = in.readUnsignedByte();
        if (v < TWO_BYTES) {
            return v;
        }
        int shift = 4;
        int b;
        do {
            if (!in.isReadable() || shift > 63) {
                throw new Malformed();
            }
            b = in.readUnsignedByte();
            v += (long) b << shift;
            shift += 7;
        } while (b >= STOP);
        return v;
    }

    /** Whether {@code in} holds a whole integer at its reader index (without moving it). */
    static boolean complete(ByteBuf in) {
        int i = in.readerIndex();
        int end = in.writerIndex();
        if (i >= end) {
            return false;
        }
        if (in.getUnsignedByte(i) < TWO_BYTES) {
            return true;
        }
        for (i++; i < end; i++) {
            if (in.getUnsignedByte(i) < STOP) {
                return true;
            }
        }
        return false;
    }
}
