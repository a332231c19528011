package io.fulcrum.stats;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Events per second over the last second, as HAProxy's frequency counters read: the current second's count
 * plus the previous second's, weighted by the part of it still within the last 1000 ms. Also keeps the
 * highest rate seen. Lock-free; a rotation racing an increment may lose that one event, which a rate
 * tolerates.
 */
public final class RateCounter {
    private final AtomicLong current = new AtomicLong();
    private volatile long second;
    private volatile long previous;
    private final AtomicLong max = new AtomicLong();

    /** Counts one event now. */
    public void add() {
        add(1);
    }

    /** Counts {@code n} events now (bytes, for a byte rate). */
    public void add(long n) {
        long now = System.currentTimeMillis();
        rotate(now / 1000);
        current.addAndGet(n);
        long r = read(now);
        if (r > max.get()) {
            max.accumulateAndGet(r, Math::max);
        }
    }

    private void rotate(long sec) {
        long s = second;
        if (sec != s) {
            synchronized (this) { // once a second at most: not on the per-event path
                if (second == s) {
                    previous = sec == s + 1 ? current.get() : 0;
                    current.set(0);
                    second = sec;
                }
            }
        }
    }

    /** Events per second now. */
    public long rate() {
        return read(System.currentTimeMillis());
    }

    private long read(long nowMillis) {
        long sec = nowMillis / 1000;
        long s = second;
        if (sec > s + 1) {
            return 0;
        }
        long cur = sec == s ? current.get() : 0;
        long prev = sec == s ? previous : current.get();
        long remaining = 1000 - nowMillis % 1000;
        return cur + (prev * remaining + 999) / 1000;
    }

    /**
     * True when the rate has reached {@code limit} events per second, read as HAProxy's limits read it: the
     * previous second's share rounded down, so that a limit of 1 lets one event a second through.
     */
    public boolean reached(long limit) {
        long now = System.currentTimeMillis();
        long sec = now / 1000;
        long s = second;
        if (sec > s + 1) {
            return false;
        }
        long cur = sec == s ? current.get() : 0;
        long prev = sec == s ? previous : current.get();
        return cur + prev * (1000 - now % 1000) / 1000 >= limit;
    }

    /** The highest rate seen. */
    public long max() {
        return max.get();
    }

    public void resetMax() {
        max.set(0);
    }
}
