package io.fulcrum.stats;

import io.netty.util.concurrent.EventExecutor;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The rate of a growing total that is summed rather than counted event by event ({@code BytesOutRate}: bytes are
 * counted per transaction in many counters). Why sampled: reading the total at each second's start costs the
 * data path nothing, where a shared rate counter would cost an atomic update per transaction. Read as HAProxy's
 * frequency counters: this second's part plus the previous second's, weighted by the part of it still within the
 * last 1000 ms.
 */
public final class SampledRate {
    private final LongSupplier total;
    /** The totals at the start of the previous second and of this one. */
    private volatile long previous;
    private volatile long last;

    public SampledRate(LongSupplier total) {
        this.total = total;
    }

    /** Samples the total at each second's start, on {@code loop}. */
    public void start(EventExecutor loop) {
        long now = System.currentTimeMillis();
        last = total.getAsLong();
        previous = last;
        loop.scheduleAtFixedRate(this::sample, 1000 - now % 1000, 1000, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        previous = last;
        last = total.getAsLong();
    }

    /** Units per second now. */
    public long rate() {
        long elapsed = System.currentTimeMillis() % 1000;
        long current = Math.max(0, total.getAsLong() - last);
        long past = last - previous;
        return current + past * (1000 - elapsed) / 1000;
    }
}
