package io.fulcrum.runtime;

/**
 * The time as the data path reads it: on an event loop, read once per loop pass (the first read after a poll) and
 * shared by all that the pass does, as HAProxy's {@code now_ms}; off the loops, the system's clocks. Why: a
 * transaction reads the time a couple of dozen times (its log timers, activity stamps, rates), each a clock read
 * costing tens of nanoseconds, while the events of one pass happen, for millisecond timers, at one time.
 *
 * <p>Meant for dates that are recorded, not for deadlines a task checks on waking up: that check reads
 * {@link System#nanoTime()}, since the pass that runs it may have begun before the deadline.
 */
public final class LoopClock {
    private LoopClock() {
    }

    /** {@link System#nanoTime()} as of this loop pass. */
    public static long nanoTime() {
        if (Thread.currentThread() instanceof EventLoops.LoopThread t) {
            if (!t.nanosRead) {
                t.nanos = System.nanoTime();
                t.nanosRead = true;
            }
            return t.nanos;
        }
        return System.nanoTime();
    }

    /** {@link System#currentTimeMillis()} as of this loop pass. */
    public static long currentTimeMillis() {
        if (Thread.currentThread() instanceof EventLoops.LoopThread t) {
            if (!t.millisRead) {
                t.millis = System.currentTimeMillis();
                t.millisRead = true;
            }
            return t.millis;
        }
        return System.currentTimeMillis();
    }

    /** A loop pass begins (its poll): the next reads take the time again. On the loop. */
    static void passBegins(EventLoops.LoopThread t) {
        t.nanosRead = false;
        t.millisRead = false;
    }

    /** A timer fired: what it does is dated afresh, not with the time its pass read before the deadline. */
    static void timerFires() {
        if (Thread.currentThread() instanceof EventLoops.LoopThread t) {
            passBegins(t);
        }
    }
}
