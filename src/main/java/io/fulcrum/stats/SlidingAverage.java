package io.fulcrum.stats;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An average over about the last {@value #SAMPLES} values, as HAProxy's qtime/ctime/rtime/ttime: once
 * {@value #SAMPLES} values were seen, a running sum that loses 1/{@value #SAMPLES} of itself at each new value (no
 * ring of samples to keep); before that, the plain average of the values seen. Also the highest value seen.
 */
public final class SlidingAverage {
    static final int SAMPLES = 1024;
    private final AtomicLong sum = new AtomicLong();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong max = new AtomicLong();

    public void add(long value) {
        long v = Math.max(0, value);
        boolean full = count.incrementAndGet() > SAMPLES;
        // Until the window is full the sum is exact; then each value replaces an average one.
        sum.accumulateAndGet(v, (s, x) -> full ? s - (s + SAMPLES - 1) / SAMPLES + x : s + x);
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
