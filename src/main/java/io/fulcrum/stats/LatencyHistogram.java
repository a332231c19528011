package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How a time is distributed (what HAProxy's averages cannot tell: the tail), in Prometheus's cumulative
 * buckets from 1 ms to 10 s. Each event loop counts in its own {@value #WIDTH} longs (the buckets, then the sum) at
 * an offset of its array of a {@link Counters}, which it shares with the other statistics there.
 */
public final class LatencyHistogram {
    /** Upper bounds in milliseconds, the last one +Inf. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Long.MAX_VALUE};
    /** Where the sum of the times is, after the buckets. */
    private static final int SUM = BOUNDS_MS.length;
    /** The longs of a loop's histogram. */
    static final int WIDTH = SUM + 1;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final Counters arrays;
    private final int at;

    /** The histograms at {@code at} in the arrays of {@code arrays}. */
    LatencyHistogram(Counters arrays, int at) {
        this.arrays = arrays;
        this.at = at;
    }

    /**
     * Counts one time, in ms, in {@code cell}, the calling thread's array (a negative time, one that did not happen, is
     * not counted): plain loads and stores in a loop's own, atomic operations in the shared one ({@code shared}).
     */
    void add(long[] cell, long millis, boolean shared) {
        if (millis < 0) {
            return;
        }
        int i = 0;
        while (millis > BOUNDS_MS[i]) {
            i++;
        }
        if (shared) {
            CELL.getAndAdd(cell, at + i, 1L);
            CELL.getAndAdd(cell, at + SUM, millis);
        } else {
            CELL.setOpaque(cell, at + i, (long) CELL.get(cell, at + i) + 1);
            CELL.setOpaque(cell, at + SUM, (long) CELL.get(cell, at + SUM) + millis);
        }
    }

    /** The observations at most {@code BOUNDS_MS[i]} ms (cumulative, as Prometheus wants them). */
    long cumulative(int i) {
        long[] n = new long[1];
        arrays.forEachArray(c -> {
            for (int j = 0; j <= i; j++) {
                n[0] += (long) CELL.getOpaque(c, at + j);
            }
        });
        return n[0];
    }

    long sumMillis() {
        long[] n = new long[1];
        arrays.forEachArray(c -> n[0] += (long) CELL.getOpaque(c, at + SUM));
        return n[0];
    }
}
