package io.fulcrum.runtime;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * A timer for deadlines that move often and rarely expire (inactivity timeouts): moving a deadline later
 * costs a field write, not a reschedule. The task fires at the earliest deadline ever asked for; if the
 * deadline has moved meanwhile, it schedules itself again for the new one. Used on one event loop only.
 */
public final class LazyTimer implements Runnable {
    private static final long NONE = Long.MAX_VALUE;

    private final EventLoop loop;
    private final Runnable onExpiry;
    private long deadline = NONE;
    private long scheduledFor = NONE;
    private ScheduledFuture<?> task;

    /** @param onExpiry runs on {@code loop} when the deadline passes */
    public LazyTimer(EventLoop loop, Runnable onExpiry) {
        this.loop = loop;
        this.onExpiry = onExpiry;
    }

    /** Expires {@code delayMillis} from now; 0 or less clears the deadline. */
    public void setIn(long delayMillis) {
        if (delayMillis <= 0) {
            clear();
        } else {
            setAt(LoopClock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis));
        }
    }

    /** Expires at {@code nanoTime} ({@link System#nanoTime()} clock). */
    public void setAt(long nanoTime) {
        deadline = nanoTime;
        if (nanoTime < scheduledFor) {
            schedule(nanoTime);
        }
    }

    /** No deadline; a pending task fires and finds nothing to do. */
    public void clear() {
        deadline = NONE;
    }

    /** Cancels for good (the connection closed). */
    public void cancel() {
        deadline = NONE;
        scheduledFor = NONE;
        if (task != null) {
            task.cancel(false);
            task = null;
        }
    }

    private void schedule(long at) {
        if (task != null) {
            task.cancel(false);
        }
        scheduledFor = at;
        task = loop.schedule(this, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    @Override
    public void run() {
        task = null;
        scheduledFor = NONE;
        if (deadline == NONE) {
            return;
        }
        if (System.nanoTime() - deadline >= 0) {
            deadline = NONE;
            LoopClock.timerFires();
            onExpiry.run();
        } else {
            schedule(deadline);
        }
    }
}
