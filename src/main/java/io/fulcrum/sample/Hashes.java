package io.fulcrum.sample;

/** The hash functions HAProxy's fetches and converters use, for values that must match HAProxy's. */
public final class Hashes {
    private Hashes() {
    }

    /** SDBM over {@code b[off..off+len)}, continuing from {@code hash} (0 to start). */
    public static int sdbm(int hash, byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            hash = (b[i] & 0xff) + (hash << 6) + (hash << 16) - hash;
        }
        return hash;
    }

    /**
     * HAProxy's "full avalanche": Bob Jenkins' 32-bit integer mix, which spreads every input bit over the whole
     * output, then a product by the prime 0xc0000001 (to spread values over HAProxy's trees).
     */
    public static int avalanche(int a) {
        a = (a + 0x7ed55d16) + (a << 12);
        a = (a ^ 0xc761c23c) ^ (a >>> 19);
        a = (a + 0x165667b1) + (a << 5);
        a = (a + 0xd3a2646c) ^ (a << 9);
        a = (a + 0xfd7046c5) + (a << 3);
        a = (a ^ 0xb55a4f09) ^ (a >>> 16);
        return a * 0xc0000001;
    }
}
