package io.fulcrum.compression;

import io.fulcrum.stats.RateCounter;

/**
 * The process's compression rates ({@code CompressBpsIn}, {@code CompressBpsOut}) and HAProxy's
 * {@code maxcomprate} limit on the input rate, set by {@code set rate-limit http-compression global}: a response
 * that starts while the limit is reached is not compressed. Process-wide like HAProxy's globals: there is one
 * process.
 */
public final class CompressionRate {
    private static final RateCounter IN = new RateCounter();
    private static final RateCounter OUT = new RateCounter();
    /** Bytes per second, 0 for none. */
    private static volatile long limit;

    private CompressionRate() {
    }

    static void counted(long in, long out) {
        IN.add(in);
        OUT.add(out);
    }

    /** The limit is reached: new responses go uncompressed. */
    static boolean saturated() {
        long l = limit;
        return l > 0 && IN.reached(l);
    }

    public static RateCounter in() {
        return IN;
    }

    public static RateCounter out() {
        return OUT;
    }

    public static long limit() {
        return limit;
    }

    /** The limit in bytes per second, 0 for none. */
    public static void limit(long bytesPerSecond) {
        limit = bytesPerSecond;
    }
}
