package io.fulcrum.stick;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * HAProxy's frequency counter over a period ({@code freq_ctr}), kept in three longs of an entry: the events of the
 * current period, those of the previous one, and the current period's start. Its value is the current count plus
 * the previous one weighted by what is left of the period, so that it slides without storing each event.
 * <p>
 * Lock-free: the loop that sees the period over moves it with a compare-and-set on its start; an event counted by
 * another loop during that move may land in the new period instead of the old (HAProxy's counter has the same
 * leeway).
 */
final class Rate {
    private static final int CURR = 0;
    private static final int PREV = 1;
    private static final int TICK = 2;

    private Rate() {
    }

    static void add(AtomicLongArray d, int off, long period, long now, long n) {
        rotate(d, off, period, now);
        d.getAndAdd(off + CURR, n);
    }

    /** Sets the current period's count (CLI {@code set table}): the rate reads {@code value} from now on. */
    static void set(AtomicLongArray d, int off, long period, long now, long value) {
        rotate(d, off, period, now);
        d.set(off + CURR, value);
    }

    static long read(AtomicLongArray d, int off, long period, long now) {
        long tick = d.get(off + TICK);
        long curr = d.get(off + CURR);
        long prev = d.get(off + PREV);
        long remain = tick + period - now;
        if (remain < 0) { // past the current period: what is left of it becomes the previous one
            remain += period;
            prev = remain >= 0 ? curr : 0;
            curr = 0;
        }
        return curr + (remain > 0 ? prev * remain / period : 0);
    }

    private static void rotate(AtomicLongArray d, int off, long period, long now) {
        for (;;) {
            long tick = d.get(off + TICK);
            long elapsed = now - tick;
            if (elapsed < period) {
                return;
            }
            boolean adjacent = elapsed < 2 * period;
            if (d.compareAndSet(off + TICK, tick, adjacent ? tick + period : now)) {
                long curr = d.getAndSet(off + CURR, 0);
                d.set(off + PREV, adjacent ? curr : 0);
                return;
            }
        }
    }
}
