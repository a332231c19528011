package io.fulcrum.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A concurrent-connection limit ({@code maxconn}) shared by listeners on several event loops. A
 * listener that finds it full waits in line and is woken up when a connection ends.
 */
public final class ConnLimit {
    private final int max;
    private final AtomicInteger current = new AtomicInteger();
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

    /** Takes a slot, or returns false when the limit is reached. */
    public boolean tryAcquire() {
        return tryAcquire(max);
    }

    /** Takes a slot if fewer than {@code limit} are taken, a limit that may change at each call (0: none). */
    public boolean tryAcquire(int limit) {
        int max = limit <= 0 ? Integer.MAX_VALUE : limit;
        for (;;) {
            int c = current.get();
            if (c >= max) {
                return false;
            }
            if (current.compareAndSet(c, c + 1)) {
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
