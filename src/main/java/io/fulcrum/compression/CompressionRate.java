package io.fulcrum.compression;

import io.fulcrum.stats.ProcessInfo;
import io.fulcrum.stats.RateCounter;

/**
 * The process's compression rates ({@code CompressBpsIn}, {@code CompressBpsOut}) and HAProxy's two limits on the
 * work compression may take: {@code maxcomprate} on the rate (set again by {@code set rate-limit http-compression
 * global}) and {@code maxcompcpuusage} on the process's CPU usage. A response that starts while the input rate or
 * the CPU usage is above its limit is not compressed; one that compresses already steps its level down after each
 * piece while the output rate or the CPU usage is above, and back up to {@code tune.comp.maxlevel} when they are
 * not ({@link Encoder}), as HAProxy's zlib does. Process-wide like HAProxy's globals: there is one process.
 */
public final class CompressionRate {
    private static final RateCounter IN = new RateCounter();
    private static final RateCounter OUT = new RateCounter();
    /** How long the CPU usage read last is trusted (reading it costs a look at /proc). */
    private static final long CPU_READ_EVERY_MS = 500;
    /** Bytes per second, 0 for none. */
    private static volatile long limit;
    /** The idle percentage below which compression backs off ({@code 100 - maxcompcpuusage}), 0 for none. */
    private static volatile int minIdle;
    private static volatile int nbthread = 1;
    private static volatile long idleReadAt;
    private static volatile long idle = 100;

    private CompressionRate() {
    }

    static void counted(long in, long out) {
        IN.add(in);
        OUT.add(out);
    }

    /** A response starting now goes uncompressed: the input rate or the CPU usage is above its limit. */
    static boolean saturated() {
        long l = limit;
        return l > 0 && IN.reached(l) || cpuBusy();
    }

    /** A compressing response steps its level down: the output rate or the CPU usage is above its limit. */
    static boolean backOff() {
        long l = limit;
        return l > 0 && OUT.rate() > l || cpuBusy();
    }

    private static boolean cpuBusy() {
        int min = minIdle;
        if (min <= 0) {
            return false;
        }
        long now = System.currentTimeMillis();
        if (now - idleReadAt >= CPU_READ_EVERY_MS) {
            idleReadAt = now; // (two loops may both read it at the turn: harmless)
            idle = ProcessInfo.idlePercent(nbthread);
        }
        return idle < min;
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

    /** {@code maxcompcpuusage} (100: none) for a process of {@code threads} event loops. */
    static void cpuLimit(int percent, int threads) {
        minIdle = Math.max(0, 100 - percent);
        nbthread = threads;
        idleReadAt = 0;
    }
}
