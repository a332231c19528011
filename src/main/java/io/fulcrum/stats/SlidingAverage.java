package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An average over about the last {@value #SAMPLES} values, as HAProxy's qtime/ctime/rtime/ttime: once
 * {@value #SAMPLES} values were seen, a running sum that loses 1/{@value #SAMPLES} of itself at each new value (no
 * ring of samples to keep); before that, the plain average of the values seen. Also the highest value seen.
 * Each event loop keeps its own window, {@value #WIDTH} longs at an offset of the loop's array of a {@link Counters}
 * (one array per loop holds all its statistics, so that an ended transaction touches a few adjacent cache lines, not
 * one per statistic); the average read is that of the windows together.
 */
public final class SlidingAverage {
    static final int SAMPLES = 1024;
    /** The longs of a window: the sum, the count (up to {@value #SAMPLES}), the highest value. */
    static final int WIDTH = 3;
    private static final int SUM = 0;
    private static final int COUNT = 1;
    private static final int MAX = 2;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final Counters arrays;
    private final int at;

    /** The windows at {@code at} in the arrays of {@code arrays}. */
    SlidingAverage(Counters arrays, int at) {
        this.arrays = arrays;
        this.at = at;
    }

    /**
     * Adds {@code value} to the window in {@code cell}, the calling thread's array: plain loads and stores in a loop's
     * own, atomic operations in the array the threads off the loops share ({@code shared}).
     */
    void add(long[] cell, long value, boolean shared) {
        long v = Math.max(0, value);
        if (shared) {
            addShared(cell, v);
            return;
        }
        // Until the window is full the sum is exact; then each value replaces an average one.
        long n = (long) CELL.get(cell, at + COUNT);
        long s = (long) CELL.get(cell, at + SUM);
        if (n < SAMPLES) {
            CELL.setOpaque(cell, at + COUNT, n + 1);
            CELL.setOpaque(cell, at + SUM, s + v);
        } else {
            CELL.setOpaque(cell, at + SUM, s - (s + SAMPLES - 1) / SAMPLES + v);
        }
        if (v > (long) CELL.get(cell, at + MAX)) {
            CELL.setOpaque(cell, at + MAX, v);
        }
    }

    private void addShared(long[] cell, long v) {
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
        arrays.forEachArray(w -> {
            sumAndCount[0] += (long) CELL.getOpaque(w, at + SUM);
            sumAndCount[1] += Math.min((long) CELL.getOpaque(w, at + COUNT), SAMPLES);
        });
        long n = sumAndCount[1];
        return n == 0 ? 0 : (sumAndCount[0] + n - 1) / n;
    }

    public long max() {
        long[] max = new long[1];
        arrays.forEachArray(w -> max[0] = Math.max(max[0], (long) CELL.getOpaque(w, at + MAX)));
        return max[0];
    }

    void resetMax() {
        arrays.forEachArray(w -> CELL.setOpaque(w, at + MAX, 0L));
    }
}
