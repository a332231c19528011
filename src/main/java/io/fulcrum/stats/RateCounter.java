package io.fulcrum.stats;

import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.runtime.VarHandles;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events per second over the last second, as HAProxy's frequency counters read: the current second's count
 * plus the previous second's, weighted by the part of it still within the last 1000 ms. Also keeps the highest
 * rate seen and when the last event came. Each event loop counts in its own cell ({@link PerLoop}); the rate
 * is the sum of the cells'. The highest rate is HAProxy's: the most events one second counted. Why it is not
 * compared at each event, as HAProxy does: adding up the cells of the second reads the other loops' cells, whose
 * lines the other cores keep writing, and raising a shared maximum is a contended write; both cost more than the
 * count itself. A second's count joins the maximum when a cell leaves that second (once a second at most), and a
 * read adds the seconds not left yet. Lock-free; a loop counts in its cell with plain loads and stores (the threads
 * off the loops, which share the first loop's cell, atomically); a rotation or a thread off the loops racing the
 * first loop's increment may lose that one event, which a rate tolerates.
 */
public final class RateCounter {
    private static final VarHandle CURRENT = VarHandles.field(MethodHandles.lookup(), Cell.class, "current", long.class);
    private static final VarHandle LAST = VarHandles.field(MethodHandles.lookup(), Cell.class, "last", long.class);

    /** One loop's count. */
    private static final class Cell {
        /** The second {@link #current} counts. */
        volatile long second;
        volatile long current;
        /** The count of the second before {@link #second}. */
        volatile long previous;
        /** When the last event came, in ms. */
        volatile long last;
    }

    private final PerLoop<Cell> cells = new PerLoop<>(Cell::new);
    private final AtomicLong max = new AtomicLong();
    /** The second of the last {@link #resetMax()} and its count then: not a maximum until it grows. */
    private volatile long resetSecond = Long.MIN_VALUE;
    private volatile long resetCount;

    /** Counts one event now. */
    public void add() {
        add(1);
    }

    /** Counts {@code n} events now (bytes, for a byte rate). */
    public void add(long n) {
        long now = LoopClock.currentTimeMillis();
        Cell c = cells.mine();
        long sec = now / 1000;
        long s = c.second;
        if (sec != s) {
            synchronized (c) { // once a second at most
                if (c.second == s) {
                    long left = countOf(s);
                    if (left > max.get()) {
                        max.accumulateAndGet(left, Math::max);
                    }
                    c.previous = sec == s + 1 ? c.current : 0;
                    c.current = 0;
                    c.second = sec;
                }
            }
        }
        if (EventLoops.loopIndex() >= 0) {
            CURRENT.setOpaque(c, (long) CURRENT.getOpaque(c) + n); // its loop's own cell: no locked instruction
        } else {
            CURRENT.getAndAdd(c, n);
        }
        if ((long) LAST.getOpaque(c) != now) {
            LAST.setOpaque(c, now); // (a volatile store would fence)
        }
    }

    /**
     * The events of second {@code sec}, all loops together (the cells still in it, and the previous count of those
     * one second past it), or 0 when they were counted before the last {@link #resetMax()} and none came since.
     */
    private long countOf(long sec) {
        long sum = 0;
        for (int i = 0, n = cells.width(); i < n; i++) {
            Cell c = cells.at(i);
            if (c != null) {
                long s = c.second;
                sum += s == sec ? c.current : s == sec + 1 ? c.previous : 0;
            }
        }
        return sec < resetSecond || sec == resetSecond && sum <= resetCount ? 0 : sum;
    }

    /** Events per second now. */
    public long rate() {
        return read(System.currentTimeMillis());
    }

    private long read(long nowMillis) {
        long[] sum = new long[1];
        cells.forEach(c -> sum[0] += read(c, nowMillis));
        return sum[0];
    }

    private static long read(Cell c, long nowMillis) {
        return read(c, nowMillis, 999);
    }

    /** A cell's rate, the previous second's share rounded up ({@code round} 999) or down (0). */
    private static long read(Cell c, long nowMillis, int round) {
        long sec = nowMillis / 1000;
        long s = c.second;
        if (sec > s + 1) {
            return 0;
        }
        long cur = sec == s ? c.current : 0;
        long prev = sec == s ? c.previous : c.current;
        long remaining = 1000 - nowMillis % 1000;
        return cur + (prev * remaining + round) / 1000;
    }

    /**
     * True when the rate has reached {@code limit} events per second, read as HAProxy's limits read it: the
     * previous second's share rounded down, so that a limit of 1 lets one event a second through.
     */
    public boolean reached(long limit) {
        long now = System.currentTimeMillis();
        long[] sum = new long[1];
        cells.forEach(c -> sum[0] += read(c, now, 0));
        return sum[0] >= limit;
    }

    /** The highest rate seen: the seconds left by the cells, and those they are in. */
    public long max() {
        long m = max.get();
        for (int i = 0, n = cells.width(); i < n; i++) {
            Cell c = cells.at(i);
            if (c != null) {
                m = Math.max(m, countOf(c.second));
            }
        }
        return m;
    }

    /**
     * Forgets the highest rate ({@code clear counters}). The events of this second so far are forgotten with it
     * until another one comes, when they count again, as HAProxy's next update compares its whole period's count.
     */
    public synchronized void resetMax() {
        long sec = System.currentTimeMillis() / 1000;
        resetSecond = Long.MIN_VALUE;
        resetCount = countOf(sec);
        resetSecond = sec;
        max.set(0);
    }

    /** When the last event came, in ms since the epoch; 0 if none did. */
    long lastMillis() {
        long[] last = new long[1];
        cells.forEach(c -> last[0] = Math.max(last[0], c.last));
        return last[0];
    }

    /** Forgets when the last event came ({@code clear counters all}). */
    void resetLast() {
        cells.forEach(c -> c.last = 0);
    }
}
