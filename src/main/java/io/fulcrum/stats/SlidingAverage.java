package io.fulcrum.stats;

import io.fulcrum.runtime.VarHandles;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An average over about the last {@value #SAMPLES} values, as HAProxy's qtime/ctime/rtime/ttime: once
 * {@value #SAMPLES} values were seen, a running sum that loses 1/{@value #SAMPLES} of itself at each new value (no
 * ring of samples to keep); before that, the plain average of the values seen. Also the highest value seen.
 * Each event loop keeps its own window ({@link PerLoop}); the average read is that of the windows together.
 */
public final class SlidingAverage {
    static final int SAMPLES = 1024;

    private static final VarHandle SUM = VarHandles.field(MethodHandles.lookup(), Window.class, "sum", long.class);
    private static final VarHandle COUNT = VarHandles.field(MethodHandles.lookup(), Window.class, "count", long.class);
    private static final VarHandle MAX = VarHandles.field(MethodHandles.lookup(), Window.class, "max", long.class);

    /** One loop's window. */
    private static final class Window {
        volatile long sum;
        volatile long count;
        volatile long max;
    }

    private final PerLoop<Window> windows = new PerLoop<>(Window::new);

    public void add(long value) {
        long v = Math.max(0, value);
        Window w = windows.mine();
        // Until the window is full the sum is exact; then each value replaces an average one.
        if ((long) COUNT.getAndAdd(w, 1L) < SAMPLES) {
            SUM.getAndAdd(w, v);
        } else {
            long s;
            do {
                s = w.sum;
            } while (!SUM.weakCompareAndSet(w, s, s - (s + SAMPLES - 1) / SAMPLES + v));
        }
        long m;
        while (v > (m = w.max) && !MAX.weakCompareAndSet(w, m, v)) {
            // another thread raised it meanwhile: compare again
        }
    }

    /** The average, rounded up as HAProxy's. */
    public long average() {
        long[] sumAndCount = new long[2];
        windows.forEach(w -> {
            sumAndCount[0] += w.sum;
            sumAndCount[1] += Math.min(w.count, SAMPLES);
        });
        long n = sumAndCount[1];
        return n == 0 ? 0 : (sumAndCount[0] + n - 1) / n;
    }

    public long max() {
        long[] max = new long[1];
        windows.forEach(w -> max[0] = Math.max(max[0], w.max));
        return max[0];
    }

    void reset() {
        windows.forEach(w -> {
            w.sum = 0;
            w.count = 0;
            w.max = 0;
        });
    }

    void resetMax() {
        windows.forEach(w -> w.max = 0);
    }
}
