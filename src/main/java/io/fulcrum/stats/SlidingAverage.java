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
        // Until the window is full the sum is exact; then each value replaces an average one. Neither
        // function captures anything: no allocation per value.
        sum.accumulateAndGet(v, count.incrementAndGet() > SAMPLES ? SlidingAverage::slide : Long::sum);
        if (v > max.get()) {
            max.accumulateAndGet(v, Math::max);
        }
    }

    private static long slide(long sum, long value) {
        return sum - (sum + SAMPLES - 1) / SAMPLES + value;
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
