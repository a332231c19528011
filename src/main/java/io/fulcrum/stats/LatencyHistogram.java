package io.fulcrum.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * How a time is distributed (what HAProxy's averages cannot tell: the tail), in Prometheus's cumulative
 * buckets from 1 ms to 10 s. Counting is one striped add per observation.
 */
public final class LatencyHistogram {
    /** Upper bounds in milliseconds, the last one +Inf. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, Long.MAX_VALUE};

    private final LongAdder[] buckets = new LongAdder[BOUNDS_MS.length];
    private final LongAdder sumMillis = new LongAdder();

    LatencyHistogram() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    /** Counts one time, in ms; a negative time (it did not happen) is not counted. */
    void add(long millis) {
        if (millis < 0) {
            return;
        }
        int i = 0;
        while (millis > BOUNDS_MS[i]) {
            i++;
        }
        buckets[i].increment();
        sumMillis.add(millis);
    }

    /** The observations at most {@code BOUNDS_MS[i]} ms (cumulative, as Prometheus wants them). */
    long cumulative(int i) {
        long n = 0;
        for (int j = 0; j <= i; j++) {
            n += buckets[j].sum();
        }
        return n;
    }

    long sumMillis() {
        return sumMillis.sum();
    }

    void reset() {
        for (LongAdder b : buckets) {
            b.reset();
        }
        sumMillis.reset();
    }
}
