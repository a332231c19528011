package io.fulcrum.runtime;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code close-spread-time}: during a soft stop, the client connections close spread over a window instead of all at
 * once, as HAProxy's H1 mux spreads them. An idle connection closes at a random moment of what is left of the window;
 * a busy one closes after a response with a chance that grows as the window runs out. "infinite": no connection is
 * closed by the soft stop, each waits for its own timeout (or its client).
 */
public final class CloseSpread {
    /** {@code close-spread-time infinite}. */
    public static final long INFINITE = -1;

    /** Milliseconds; 0: none (all close at once), {@link #INFINITE}. */
    private final long window;
    /** When the window ends (System.nanoTime), set when the soft stop proper begins. */
    private volatile long end;

    CloseSpread(long window) {
        this.window = window;
    }

    /** The soft stop proper begins: the window starts now. */
    void begin() {
        end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, window));
    }

    /** Whether a connection that just served a request closes after it (its response says so). */
    public boolean closesActive() {
        if (window == INFINITE) {
            return false;
        }
        long remaining = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        // Likelier as the window runs out, as HAProxy's "remaining <= random(window)".
        return remaining <= 0 || remaining <= ThreadLocalRandom.current().nextLong(window + 1);
    }

    /** In how many ms an idle connection closes: a random moment of what is left of the window; -1: never. */
    public long idleCloseDelay() {
        if (window == INFINITE) {
            return -1;
        }
        long remaining = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
        return remaining <= 0 ? 0 : ThreadLocalRandom.current().nextLong(remaining + 1);
    }
}
