package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An average over about the last {@value #SAMPLES} values, as HAProxy's qtime/ctime/rtime/ttime: once
 * {@value #SAMPLES} values were seen, a running sum that loses 1/{@value #SAMPLES} of itself at each new value (no
 * ring of samples to keep); before that, the plain average of the values seen. Also the highest value seen.
 * Each event loop keeps its own window ({@link PerLoop}), {@value #WIDTH} longs at an offset of an array it may
 * share with other statistics of the same object ({@link Counters}: one array per loop holds them all, so that an
 * ended transaction touches a few adjacent cache lines, not one per statistic); the average read is that of the
 * windows together.
 */
public final class SlidingAverage {
    static final int SAMPLES = 1024;
    /** The longs of a window: the sum, the count, the highest value. */
    static final int WIDTH = 3;
    private static final int SUM = 0;
    private static final int COUNT = 1;
    private static final int MAX = 2;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final PerLoop<long[]> windows;
    private final int at;

    /** A window of its own per loop. */
    public SlidingAverage() {
        this(new PerLoop<>(() -> new long[WIDTH]), 0);
    }

    /** The windows at {@code at} in {@code cells}' arrays. */
    SlidingAverage(PerLoop<long[]> cells, int at) {
        this.windows = cells;
        this.at = at;
    }

    public void add(long value) {
        add(windows.mine(), value);
    }

    /**
     * Adds {@code value} to the window in {@code cell}, the calling loop's array. Atomic operations: threads off the
     * loops share a loop's array.
     */
    void add(long[] cell, long value) {
        long v = Math.max(0, value);
        // Until the window is full the sum is exact; then each value replaces an average one.
        if ((long) CELL.getAndAdd(cell, at + COUNT, 1L) < SAMPLES) {
            CELL.getAndAdd(cell, at + SUM, v);
        } else {
            long s;
            do {
                s = (long) CELL.getOpaque(cell, at + SUM);
            } while (!CELL.weakCompareAndSet(cell, at + SUM, s, s - (s + SAMPLES - 1) / SAMPLES + v));
        }
        long m;
        while (v > (m = (long) CELL.getOpaque(cell, at + MAX)) && !CELL.weakCompareAndSet(cell, at + MAX, m, v)) {
            // another thread raised it meanwhile: compare again
        }
    }

    /** The average, rounded up as HAProxy's. */
    public long average() {
        long[] sumAndCount = new long[2];
        windows.forEach(w -> {
            sumAndCount[0] += (long) CELL.getOpaque(w, at + SUM);
            sumAndCount[1] += Math.min((long) CELL.getOpaque(w, at + COUNT), SAMPLES);
        });
        long n = sumAndCount[1];
        return n == 0 ? 0 : (sumAndCount[0] + n - 1) / n;
    }

    public long max() {
        long[] max = new long[1];
        windows.forEach(w -> max[0] = Math.max(max[0], (long) CELL.getOpaque(w, at + MAX)));
        return max[0];
    }

    void reset() {
        windows.forEach(w -> {
            CELL.setOpaque(w, at + SUM, 0L);
            CELL.setOpaque(w, at + COUNT, 0L);
            CELL.setOpaque(w, at + MAX, 0L);
        });
    }

    void resetMax() {
        windows.forEach(w -> CELL.setOpaque(w, at + MAX, 0L));
    }
}
