package io.fulcrum.stats;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An average over about the last {@value #SAMPLES} values, as HAProxy's qtime/ctime/rtime/ttime: a running sum
 * that loses 1/n of itself at each new value (no ring of samples to keep), n being the number of values
 * seen up to {@value #SAMPLES}, so that the first values already give a true average. Also the highest
 * value seen.
 */
public final class SlidingAverage {
    static final int SAMPLES = 1024;
    private final AtomicLong sum = new AtomicLong();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong max = new AtomicLong();

    public void add(long value) {
        long v = Math.max(0, value);
        long n = Math.min(count.incrementAndGet(), SAMPLES);
        sum.accumulateAndGet(v, (s, x) -> s - (s + n - 1) / n + x);
        if (v > max.get()) {
            max.accumulateAndGet(v, Math::max);
        }
    }

    /** The average, rounded up as HAProxy's. */
    public long average() {
        long n = Math.min(count.get(), SAMPLES);
        return n == 0 ? 0 : (sum.get() + n - 1) / n;
    }

    public long max() {
        return max.get();
    }

    void reset() {
        sum.set(0);
        count.set(0);
        max.set(0);
    }

    void resetMax() {
        max.set(0);
    }
}
