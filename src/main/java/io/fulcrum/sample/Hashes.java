package io.fulcrum.sample;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The non-cryptographic hash functions of HAProxy's converters and hash-based load balancing, giving
 * the same values: djb2, sdbm, wt6, CRC32, CRC32C, their optional avalanche, and xxHash's XXH32, XXH64
 * and XXH3 (64 bits). 32-bit results are returned as unsigned values in a long.
 */
public final class Hashes {
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Hashes() {
    }

    public static long djb2(byte[] b, int off, int len) {
        int h = 5381;
        for (int i = off; i < off + len; i++) {
            h = (h << 5) + h + (b[i] & 0xff);
        }
        return h & 0xffffffffL;
    }

    public static long sdbm(byte[] b, int off, int len) {
        return sdbm(0, b, off, len) & 0xffffffffL;
    }

    /** SDBM over {@code b[off..off+len)}, continuing from {@code hash} (0 to start): several pieces hash as one. */
    public static int sdbm(int hash, byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            hash = (b[i] & 0xff) + (hash << 6) + (hash << 16) - hash;
        }
        return hash;
    }

    /** HAProxy's wt6: two 32-bit lanes mixed with rotations whose amounts depend on the data. */
    public static long wt6(byte[] b, int off, int len) {
        int h0 = 0xa53c965a;
        int h1 = 0x5ca6953a;
        int step0 = 6;
        int step1 = 18;
        for (int i = off; i < off + len; i++) {
            int c = b[i] & 0xff;
            h0 = ~(h0 ^ c);
            h1 = ~(h1 + c);
            int t = Integer.rotateLeft(h1, step0);
            h1 = Integer.rotateLeft(h0, step1);
            h0 = t;
            int mix = ((h0 >>> 16) ^ h1) & 0xffff;
            step0 = mix & 0x1f;
            step1 = mix >>> 11;
        }
        return (h0 ^ h1) & 0xffffffffL;
    }

    public static long crc32(byte[] b, int off, int len) {
        CRC32 crc = new CRC32();
        crc.update(b, off, len);
        return crc.getValue();
    }

    public static long crc32c(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return crc.getValue();
    }

    /**
     * The "full avalanche" applied on request to a 32-bit hash: Bob Jenkins' 32-bit integer mix, then a
     * multiplication by a prime close to 3/4 of 2^32, as HAProxy spreads its hash keys.
     */
    public static long avalanche(long hash) {
        int a = (int) hash;
        a = (a + 0x7ed55d16) + (a << 12);
        a = (a ^ 0xc761c23c) ^ (a >>> 19);
        a = (a + 0x165667b1) + (a << 5);
        a = (a + 0xd3a2646c) ^ (a << 9);
        a = (a + 0xfd7046c5) + (a << 3);
        a = (a ^ 0xb55a4f09) ^ (a >>> 16);
        return (a * 0xC0000001) & 0xffffffffL;
    }

    // --- xxHash (https://github.com/Cyan4973/xxHash, BSD 2-clause): XXH32, XXH64, XXH3 64 bits --------------

    private static final int P32_1 = 0x9E3779B1;
    private static final int P32_2 = 0x85EBCA77;
    private static final int P32_3 = 0xC2B2AE3D;
    private static final int P32_4 = 0x27D4EB2F;
    private static final int P32_5 = 0x165667B1;
    private static final long P64_1 = 0x9E3779B185EBCA87L;
    private static final long P64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P64_3 = 0x165667B19E3779F9L;
    private static final long P64_4 = 0x85EBCA77C2B2AE63L;
    private static final long P64_5 = 0x27D4EB2F165667C5L;

    public static long xxh32(byte[] b, int off, int len, int seed) {
        int i = off;
        int end = off + len;
        int h;
        if (len >= 16) {
            int v1 = seed + P32_1 + P32_2;
            int v2 = seed + P32_2;
            int v3 = seed;
            int v4 = seed - P32_1;
            for (; i <= end - 16; i += 16) {
                v1 = round32(v1, le32(b, i));
                v2 = round32(v2, le32(b, i + 4));
                v3 = round32(v3, le32(b, i + 8));
                v4 = round32(v4, le32(b, i + 12));
            }
            h = Integer.rotateLeft(v1, 1) + Integer.rotateLeft(v2, 7) + Integer.rotateLeft(v3, 12) + Integer.rotateLeft(v4, 18);
        } else {
            h = seed + P32_5;
        }
        h += len;
        for (; i <= end - 4; i += 4) {
            h = Integer.rotateLeft(h + le32(b, i) * P32_3, 17) * P32_4;
        }
        for (; i < end; i++) {
            h = Integer.rotateLeft(h + (b[i] & 0xff) * P32_5, 11) * P32_1;
        }
        h ^= h >>> 15;
        h *= P32_2;
        h ^= h >>> 13;
        h *= P32_3;
        h ^= h >>> 16;
        return h & 0xffffffffL;
    }

    private static int round32(int acc, int input) {
        return Integer.rotateLeft(acc + input * P32_2, 13) * P32_1;
    }

    public static long xxh64(byte[] b, int off, int len, long seed) {
        int i = off;
        int end = off + len;
        long h;
        if (len >= 32) {
            long v1 = seed + P64_1 + P64_2;
            long v2 = seed + P64_2;
            long v3 = seed;
            long v4 = seed - P64_1;
            for (; i <= end - 32; i += 32) {
                v1 = round64(v1, le64(b, i));
                v2 = round64(v2, le64(b, i + 8));
                v3 = round64(v3, le64(b, i + 16));
                v4 = round64(v4, le64(b, i + 24));
            }
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge64(h, v1);
            h = merge64(h, v2);
            h = merge64(h, v3);
            h = merge64(h, v4);
        } else {
            h = seed + P64_5;
        }
        h += len;
        for (; i <= end - 8; i += 8) {
            h ^= round64(0, le64(b, i));
            h = Long.rotateLeft(h, 27) * P64_1 + P64_4;
        }
        if (i <= end - 4) {
            h ^= (le32(b, i) & 0xffffffffL) * P64_1;
            h = Long.rotateLeft(h, 23) * P64_2 + P64_3;
            i += 4;
        }
        for (; i < end; i++) {
            h ^= (b[i] & 0xff) * P64_5;
            h = Long.rotateLeft(h, 11) * P64_1;
        }
        return avalanche64(h);
    }

    private static long round64(long acc, long input) {
        return Long.rotateLeft(acc + input * P64_2, 31) * P64_1;
    }

    private static long merge64(long h, long v) {
        return (h ^ round64(0, v)) * P64_1 + P64_4;
    }

    private static long avalanche64(long h) {
        h ^= h >>> 33;
        h *= P64_2;
        h ^= h >>> 29;
        h *= P64_3;
        return h ^ h >>> 32;
    }

    /** XXH3's default secret, 192 pseudo-random bytes. */
    private static final byte[] SECRET = java.util.HexFormat.of().parseHex(
            "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
            + "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
            + "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
            + "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
            + "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
            + "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");
    private static final long MX1 = 0x165667919E3779F9L;
    private static final long MX2 = 0x9FB21C651E98DF25L;
    private static final int STRIPE = 64;

    /** XXH3_64bits_withSeed. */
    public static long xxh3(byte[] b, int off, int len, long seed) {
        byte[] s = SECRET;
        if (len <= 16) {
            if (len > 8) {
                long lo = le64(b, off) ^ ((le64(s, 24) ^ le64(s, 32)) + seed);
                long hi = le64(b, off + len - 8) ^ ((le64(s, 40) ^ le64(s, 48)) - seed);
                return avalanche3(len + Long.reverseBytes(lo) + hi + fold(lo, hi));
            }
            if (len >= 4) {
                long sd = seed ^ (long) Integer.reverseBytes((int) seed) << 32;
                long in64 = (le32(b, off + len - 4) & 0xffffffffL) + ((long) le32(b, off) << 32);
                return rrmxmx(in64 ^ ((le64(s, 8) ^ le64(s, 16)) - sd), len);
            }
            if (len > 0) {
                int combined = (b[off] & 0xff) << 16 | (b[off + (len >> 1)] & 0xff) << 24 | (b[off + len - 1] & 0xff) | len << 8;
                long flip = ((le32(s, 0) ^ le32(s, 4)) & 0xffffffffL) + seed;
                return avalanche64((combined & 0xffffffffL) ^ flip);
            }
            return avalanche64(seed ^ le64(s, 56) ^ le64(s, 64));
        }
        if (len <= 128) {
            long acc = len * P64_1;
            if (len > 32) {
                if (len > 64) {
                    if (len > 96) {
                        acc += mix16(b, off + 48, s, 96, seed) + mix16(b, off + len - 64, s, 112, seed);
                    }
                    acc += mix16(b, off + 32, s, 64, seed) + mix16(b, off + len - 48, s, 80, seed);
                }
                acc += mix16(b, off + 16, s, 32, seed) + mix16(b, off + len - 32, s, 48, seed);
            }
            acc += mix16(b, off, s, 0, seed) + mix16(b, off + len - 16, s, 16, seed);
            return avalanche3(acc);
        }
        if (len <= 240) {
            long acc = len * P64_1;
            int rounds = len / 16;
            for (int i = 0; i < 8; i++) {
                acc += mix16(b, off + 16 * i, s, 16 * i, seed);
            }
            acc = avalanche3(acc);
            for (int i = 8; i < rounds; i++) {
                acc += mix16(b, off + 16 * i, s, 16 * (i - 8) + 3, seed);
            }
            acc += mix16(b, off + len - 16, s, 136 - 17, seed);
            return avalanche3(acc);
        }
        return hashLong(b, off, len, seed == 0 ? s : customSecret(seed));
    }

    private static long hashLong(byte[] b, int off, int len, byte[] s) {
        long[] acc = {P32_3 & 0xffffffffL, P64_1, P64_2, P64_3, P64_4, P32_2 & 0xffffffffL, P64_5, P32_1 & 0xffffffffL};
        int stripesPerBlock = (s.length - STRIPE) / 8;
        int blockLen = STRIPE * stripesPerBlock;
        int blocks = (len - 1) / blockLen;
        for (int n = 0; n < blocks; n++) {
            for (int k = 0; k < stripesPerBlock; k++) {
                accumulate(acc, b, off + n * blockLen + k * STRIPE, s, k * 8);
            }
            for (int i = 0; i < 8; i++) {
                long a = acc[i];
                a ^= a >>> 47;
                a ^= le64(s, s.length - STRIPE + 8 * i);
                acc[i] = a * (P32_1 & 0xffffffffL);
            }
        }
        int stripes = ((len - 1) - blockLen * blocks) / STRIPE;
        for (int k = 0; k < stripes; k++) {
            accumulate(acc, b, off + blocks * blockLen + k * STRIPE, s, k * 8);
        }
        accumulate(acc, b, off + len - STRIPE, s, s.length - STRIPE - 7);
        long result = len * P64_1;
        for (int i = 0; i < 4; i++) {
            result += fold(acc[2 * i] ^ le64(s, 11 + 16 * i), acc[2 * i + 1] ^ le64(s, 11 + 16 * i + 8));
        }
        return avalanche3(result);
    }

    private static void accumulate(long[] acc, byte[] b, int in, byte[] s, int sec) {
        for (int i = 0; i < 8; i++) {
            long data = le64(b, in + 8 * i);
            long key = data ^ le64(s, sec + 8 * i);
            acc[i ^ 1] += data;
            acc[i] += (key & 0xffffffffL) * (key >>> 32);
        }
    }

    private static byte[] customSecret(long seed) {
        byte[] c = new byte[SECRET.length];
        for (int i = 0; i < SECRET.length; i += 16) {
            LE64.set(c, i, le64(SECRET, i) + seed);
            LE64.set(c, i + 8, le64(SECRET, i + 8) - seed);
        }
        return c;
    }

    private static long mix16(byte[] b, int in, byte[] s, int sec, long seed) {
        return fold(le64(b, in) ^ (le64(s, sec) + seed), le64(b, in + 8) ^ (le64(s, sec + 8) - seed));
    }

    /** The 128-bit product of two 64-bit values, its halves xored. */
    private static long fold(long a, long b) {
        return a * b ^ Math.unsignedMultiplyHigh(a, b);
    }

    private static long avalanche3(long h) {
        h ^= h >>> 37;
        h *= MX1;
        return h ^ h >>> 32;
    }

    private static long rrmxmx(long h, int len) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= MX2;
        h ^= (h >>> 35) + len;
        h *= MX2;
        return h ^ h >>> 28;
    }

    private static long le64(byte[] b, int i) {
        return (long) LE64.get(b, i);
    }

    private static int le32(byte[] b, int i) {
        return (int) LE32.get(b, i);
    }
}
