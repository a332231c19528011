package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How a time is distributed (what HAProxy's averages cannot tell: the tail), in Prometheus's cumulative
 * buckets from 1 ms to 10 s. Each event loop counts in its own {@value #WIDTH} longs (the buckets, then the sum) at
 * an offset of an array it shares with the other statistics of its {@link Counters} ({@link SlidingAverage} says why).
 */
public final class LatencyHistogram {
    /** Upper bounds in milliseconds, the last one +Inf. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Long.MAX_VALUE};
    /** Where the sum of the times is, after the buckets. */
    private static final int SUM = BOUNDS_MS.length;
    /** The longs of a loop's histogram. */
    static final int WIDTH = SUM + 1;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final PerLoop<long[]> cells;
    private final int at;

    /** The histograms at {@code at} in {@code cells}' arrays. */
    LatencyHistogram(PerLoop<long[]> cells, int at) {
        this.cells = cells;
        this.at = at;
    }

    /**
     * Counts one time, in ms, in {@code cell}, the calling loop's array; a negative time (it did not happen) is not
     * counted. Atomic operations: threads off the loops share a loop's array.
     */
    void add(long[] cell, long millis) {
        if (millis < 0) {
            return;
        }
        int i = 0;
        while (millis > BOUNDS_MS[i]) {
            i++;
        }
        CELL.getAndAdd(cell, at + i, 1L);
        CELL.getAndAdd(cell, at + SUM, millis);
    }

    /** The observations at most {@code BOUNDS_MS[i]} ms (cumulative, as Prometheus wants them). */
    long cumulative(int i) {
        long[] n = new long[1];
        cells.forEach(c -> {
            for (int j = 0; j <= i; j++) {
                n[0] += (long) CELL.getOpaque(c, at + j);
            }
        });
        return n[0];
    }

    long sumMillis() {
        long[] n = new long[1];
        cells.forEach(c -> n[0] += (long) CELL.getOpaque(c, at + SUM));
        return n[0];
    }

    void reset() {
        cells.forEach(c -> {
            for (int j = 0; j < WIDTH; j++) {
                CELL.setOpaque(c, at + j, 0L);
            }
        });
    }
}
