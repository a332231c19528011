package io.fulcrum.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A concurrent-connection limit ({@code maxconn}) shared by listeners on several event loops. A
 * listener that finds it full waits in line and is woken up when a connection ends. It also counts what
 * the stats show of it: the slots taken so far and the most taken at once.
 */
public final class ConnLimit {
    private volatile int max;
    private final AtomicInteger current = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final LongAdder total = new LongAdder();
    private final ConcurrentLinkedQueue<Runnable> waiters = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Runnable> onEmpty = new AtomicReference<>();

    /** @param max the limit; 0 or less means none */
    public ConnLimit(int max) {
        this.max = max <= 0 ? Integer.MAX_VALUE : max;
    }

    public int max() {
        return max;
    }

    public int current() {
        return current.get();
    }

    /** The most slots taken at once (smax, MaxConn...). */
    public int peak() {
        return peak.get();
    }

    /** The slots taken so far (stot, CumConns...). */
    public long total() {
        return total.sum();
    }

    /** Clears the peak down to what is taken now ({@code clear counters}). */
    public void resetPeak() {
        peak.set(current.get());
    }

    /** Clears the total ({@code clear counters all}). */
    public void resetTotal() {
        total.reset();
    }

    /**
     * Changes the limit at run time ({@code set maxconn}); 0 or less means none (see {@link #limitTo}).
     */
    public void max(int max) {
        limitTo(max <= 0 ? Integer.MAX_VALUE : max);
    }

    /**
     * Changes the limit at run time to {@code max} itself: 0 admits nothing until the limit is raised, as HAProxy's
     * {@code set maxconn frontend <fe> 0}. A raised limit wakes the listeners waiting for a slot.
     */
    public void limitTo(int max) {
        this.max = Math.max(0, max);
        Runnable w;
        while (current.get() < this.max && (w = waiters.poll()) != null) {
            w.run();
        }
    }

    /** Takes a slot, or returns false when the limit is reached. */
    public boolean tryAcquire() {
        return acquireBelow(max); // (its own max may be 0: nothing admitted)
    }

    /** Takes a slot if fewer than {@code limit} are taken, a limit that may change at each call (0: none). */
    public boolean tryAcquire(int limit) {
        return acquireBelow(limit <= 0 ? Integer.MAX_VALUE : limit);
    }

    private boolean acquireBelow(int max) {
        for (;;) {
            int c = current.get();
            if (c >= max) {
                return false;
            }
            if (current.compareAndSet(c, c + 1)) {
                total.increment();
                if (c + 1 > peak.get()) {
                    peak.accumulateAndGet(c + 1, Math::max);
                }
                return true;
            }
        }
    }

    /** Gives a slot back and wakes one waiting listener. */
    public void release() {
        int now = current.decrementAndGet();
        Runnable w = waiters.poll();
        if (w != null) {
            w.run();
        }
        if (now == 0) {
            Runnable e = onEmpty.getAndSet(null);
            if (e != null) {
                e.run();
            }
        }
    }

    /** Runs {@code action} once when no slot is taken: now if none is, else at the last release. */
    public void whenEmpty(Runnable action) {
        onEmpty.set(action);
        if (current.get() == 0 && onEmpty.compareAndSet(action, null)) {
            action.run();
        }
    }

    /** Runs {@code wakeUp} (once) when a slot is released; it must be cheap and thread-safe (post to a loop). */
    public void await(Runnable wakeUp) {
        waiters.add(wakeUp);
        // A slot may have been released between the failed acquire and the registration.
        if (current.get() < max && waiters.remove(wakeUp)) {
            wakeUp.run();
        }
    }
}
