package io.fulcrum.pool;

import io.fulcrum.server.Server;
import io.fulcrum.stats.PerLoop;
import io.netty.util.concurrent.EventExecutor;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What all loops know of one server's connections (each loop's idle lists are its own, in {@link ServerPool}):
 * the idle ones in each loop, how many of them are safe, the ones carrying a transaction, the estimate of the
 * need, and where the next takeover looks first. The counts are kept in a cell per loop, which only that loop
 * updates (HAProxy's server counters are atomics all threads update: several contended updates per request);
 * readers add the cells up. A connection may be counted in on one loop and out on another (a takeover moves
 * it), so a cell alone may be negative: only the sum means something. Where the next takeover looks first is
 * kept the same way: each loop dates in its cell the last connection found in it, and a takeover starts after
 * the loop with the latest date (HAProxy's next_takeover is one field that every thread finding a connection
 * writes: with two threads each reusing its own connections, a shared line written on each request).
 */
public final class ServerIdle {
    /** HAProxy's and Fulcrum's most threads ({@code nbthread}). */
    static final int MAX_LOOPS = PerLoop.SLOTS;
    private static final ConcurrentHashMap<Server, ServerIdle> ALL = new ConcurrentHashMap<>();
    /**
     * A cell's counts: idle connections (curr_idle_thr), the safe ones among them, connections in use; and when a
     * connection was last found in its loop ({@link #stamp}, 0: never).
     */
    static final int IDLE = 0;
    static final int SAFE = 1;
    static final int USED = 2;
    static final int FOUND = 3;
    /** A cell spans a cache line, so that no collector moving objects together puts two loops' counts on one line. */
    private static final int CELL_LONGS = 8;
    /** The origin of the found dates, so that every date is positive (System.nanoTime()'s own origin is any). */
    private static final long EPOCH = System.nanoTime() - 1;

    final Server server;
    final PoolSettings settings;
    final PerLoop<AtomicLongArray> cells = new PerLoop<>(() -> new AtomicLongArray(CELL_LONGS));
    /** The most connections in use at once since the last purge (max_used_conns); not exact under a race, as HAProxy's. */
    private volatile int maxUsed;
    /** The estimate of the connections needed (est_need_conns). */
    private volatile int estimate;
    private final AtomicBoolean purgeArmed = new AtomicBoolean();

    private ServerIdle(Server server) {
        this.server = server;
        this.settings = PoolSettings.of(server);
    }

    /** The server's pool settings, read once (the data path asks on each request). */
    public PoolSettings settings() {
        return settings;
    }

    public static ServerIdle of(Server server) {
        return ALL.computeIfAbsent(server, ServerIdle::new);
    }

    /** A server deleted at run time: its counts go. */
    static void forget(Server server) {
        ALL.remove(server);
    }

    /**
     * A connection starts being used, from its creation (HAProxy counts it in conn_new()) or from its leaving an
     * idle list: the need is at least what is in use (srv_use_conn). Only the peaks write the shared values.
     */
    public void used() {
        cells.mine().getAndIncrement(USED);
        int u = usedCount();
        if (u > maxUsed) {
            maxUsed = u;
        }
        if (u > estimate) {
            estimate = u;
        }
    }

    /** A connection stopped being used (idle now, or closed). */
    public void unused() {
        cells.mine().getAndDecrement(USED);
    }

    public int usedCount() {
        return (int) sum(USED);
    }

    public int maxUsed() {
        return maxUsed;
    }

    public int estimate() {
        return estimate;
    }

    public int idleCount() {
        return (int) sum(IDLE);
    }

    public int safeCount() {
        return (int) sum(SAFE);
    }

    /** Idle connections in the loop of thread index {@code loop}. */
    public int idleIn(int loop) {
        AtomicLongArray c = cells.at(loop);
        return c == null ? 0 : (int) c.get(IDLE);
    }

    /** Safe idle connections in the loop of thread index {@code loop}. */
    public int safeIn(int loop) {
        AtomicLongArray c = cells.at(loop);
        return c == null ? 0 : (int) c.get(SAFE);
    }

    /**
     * A connection was found in the loop whose cell is {@code mine}, on that loop: dated there, so that the next
     * takeover looks at the loop after it first. The date is the monotonic clock's, not the loop pass's: a takeover
     * asked by another loop after its own find runs on this loop in a pass that may have begun before.
     */
    static void foundIn(AtomicLongArray mine) {
        mine.setRelease(FOUND, System.nanoTime() - EPOCH);
    }

    /**
     * The thread index a takeover looks at first (next_takeover): the one after the loop a connection was last found
     * in, 0 when none was ever found.
     */
    int nextTakeover() {
        int last = -1;
        long latest = 0;
        for (int i = 0, w = cells.width(); i < w; i++) {
            AtomicLongArray c = cells.at(i);
            long at = c == null ? 0 : c.getAcquire(FOUND);
            if (at > latest) {
                latest = at;
                last = i;
            }
        }
        return last + 1;
    }

    private long sum(int count) {
        long n = 0;
        for (int i = 0, w = cells.width(); i < w; i++) {
            AtomicLongArray c = cells.at(i);
            if (c != null) {
                n += c.get(count);
            }
        }
        return n;
    }

    /**
     * May a connection coming back from a transaction be kept (srv_add_to_idle_list)? When this loop has none
     * of its kind yet, or while idle and used ones stay within the estimated need (plus {@code pool-low-conn});
     * never above {@code pool-max-conn}, nor with a purge delay of 0. Counts it in {@code mine}, this loop's
     * cell, when kept.
     */
    boolean admit(AtomicLongArray mine, boolean isSafe, boolean loopHasSafe, boolean loopHasIdle) {
        if (settings.purgeDelay == 0) {
            return false;
        }
        boolean loopsFirst = !loopHasSafe && (isSafe || !loopHasIdle);
        if (!loopsFirst || settings.maxConn >= 0) { // (the other loops' cells are read only when needed)
            long used = 0;
            long idle = 0;
            for (int i = 0, w = cells.width(); i < w; i++) {
                AtomicLongArray c = cells.at(i);
                if (c != null) {
                    used += c.get(USED);
                    idle += c.get(IDLE);
                }
            }
            if (!loopsFirst && used + idle > Math.max(used, estimate) + settings.lowConn
                    || settings.maxConn >= 0 && idle >= settings.maxConn) { // (pool-max-conn: not exact under a race)
                return false;
            }
        }
        mine.getAndIncrement(IDLE);
        if (isSafe) {
            mine.getAndIncrement(SAFE);
        }
        return true;
    }

    /** An idle connection counted in {@code mine}, this loop's cell, left its list (reused, taken over, closed). */
    static void leave(AtomicLongArray mine, boolean isSafe) {
        mine.getAndDecrement(IDLE);
        if (isSafe) {
            mine.getAndDecrement(SAFE);
        }
    }

    /** Starts the purge task on {@code loop} unless it runs already: it stops when no idle connection is left. */
    void armPurge(EventExecutor loop) {
        if (!purgeArmed.get() && purgeArmed.compareAndSet(false, true)) { // (a read first: each release comes here)
            loop.schedule(() -> purge(loop), settings.purgeDelay, TimeUnit.MILLISECONDS);
        }
    }

    private void purge(EventExecutor loop) {
        purgeOnce();
        purgeArmed.set(false);
        if (idleCount() > 0) {
            armPurge(loop);
        }
    }

    /**
     * Every {@code pool-purge-delay} (srv_cleanup_idle_conns): half of the connections above the need (rounded up)
     * go, none when none exceeds, taken from each loop in proportion to its idle ones plus one, uncapped as
     * HAProxy's (so a small excess goes at once: 5 idle above a need of 2 all go); the need becomes the mean of
     * the estimate and the most used during the period, never less than the latter. Returns how many the loops
     * are asked to close.
     */
    int purgeOnce() {
        int current = idleCount();
        if (current == 0) {
            return 0;
        }
        int most = maxUsed;
        int used = usedCount();
        int exceed = used + current - Math.max(most, estimate);
        estimate = Math.max((estimate + most) / 2, most);
        maxUsed = used;
        if (exceed <= 0) {
            return 0;
        }
        int toKill = exceed / 2 + (exceed & 1);
        int asked = 0;
        for (int i = 0, w = cells.width(); i < w; i++) {
            int here = idleIn(i);
            if (here > 0) {
                int n = toKill * here / current + 1;
                ServerPool.closeIdle(i, server, n);
                asked += n;
            }
        }
        return asked;
    }
}
