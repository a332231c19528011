package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How a time is distributed (what HAProxy's averages cannot tell: the tail), in Prometheus's cumulative
 * buckets from 1 ms to 10 s. Each event loop counts in its own array ({@link PerLoop}): the buckets, then the sum.
 */
public final class LatencyHistogram {
    /** Upper bounds in milliseconds, the last one +Inf. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Long.MAX_VALUE};
    /** Where each loop's array keeps the sum of the times, after the buckets. */
    private static final int SUM = BOUNDS_MS.length;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final PerLoop<long[]> cells = new PerLoop<>(() -> new long[SUM + 1]);

    /** Counts one time, in ms; a negative time (it did not happen) is not counted. */
    void add(long millis) {
        if (millis < 0) {
            return;
        }
        int i = 0;
        while (millis > BOUNDS_MS[i]) {
            i++;
        }
        long[] c = cells.mine();
        CELL.getAndAdd(c, i, 1L); // (atomic: threads off the loops share a loop's array)
        CELL.getAndAdd(c, SUM, millis);
    }

    /** The observations at most {@code BOUNDS_MS[i]} ms (cumulative, as Prometheus wants them). */
    long cumulative(int i) {
        long[] n = new long[1];
        cells.forEach(c -> {
            for (int j = 0; j <= i; j++) {
                n[0] += (long) CELL.getOpaque(c, j);
            }
        });
        return n[0];
    }

    long sumMillis() {
        long[] n = new long[1];
        cells.forEach(c -> n[0] += (long) CELL.getOpaque(c, SUM));
        return n[0];
    }

    void reset() {
        cells.forEach(c -> {
            for (int j = 0; j <= SUM; j++) {
                CELL.setOpaque(c, j, 0L);
            }
        });
    }
}
