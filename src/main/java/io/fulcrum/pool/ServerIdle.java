package io.fulcrum.pool;

import io.fulcrum.server.Server;
import io.netty.util.concurrent.EventExecutor;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What all loops know of one server's connections (each loop's idle lists are its own, in {@link ServerPool}):
 * the idle ones in each loop, how many of them are safe, the ones carrying a transaction, the estimate of the
 * need, and where the next takeover looks first. Atomic: any loop updates them, as HAProxy's server counters.
 */
public final class ServerIdle {
    /** HAProxy's and Fulcrum's most threads ({@code nbthread}). */
    static final int MAX_LOOPS = 64;
    private static final ConcurrentHashMap<Server, ServerIdle> ALL = new ConcurrentHashMap<>();

    final Server server;
    final PoolSettings settings;
    /** Idle connections, all loops together (curr_idle_conns). */
    final AtomicInteger idle = new AtomicInteger();
    /** Of those, the ones that already carried more than one request (curr_safe_nb). */
    final AtomicInteger safe = new AtomicInteger();
    /** Idle connections per loop, by thread index (curr_idle_thr). */
    final AtomicIntegerArray perLoop = new AtomicIntegerArray(MAX_LOOPS);
    /** The loop a takeover looks at first, so that no loop is always drained first (next_takeover). */
    final AtomicInteger nextTakeover = new AtomicInteger();
    private final AtomicInteger used = new AtomicInteger();
    private final AtomicInteger maxUsed = new AtomicInteger();
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

    /** A connection starts carrying a transaction: the need is at least what is in use (srv_use_conn). */
    public void used() {
        int u = used.incrementAndGet();
        if (u > maxUsed.get()) { // (a read, not a CAS, on every request: the line stays shared)
            maxUsed.accumulateAndGet(u, Math::max);
        }
        if (estimate < u) {
            estimate = u; // (not exact under a race, as HAProxy's)
        }
    }

    /** A connection stopped carrying transactions (idle now, or closed). */
    public void unused() {
        used.decrementAndGet();
    }

    public int usedCount() {
        return used.get();
    }

    public int maxUsed() {
        return maxUsed.get();
    }

    public int estimate() {
        return estimate;
    }

    public int idleCount() {
        return idle.get();
    }

    public int safeCount() {
        return safe.get();
    }

    /** Idle connections in the loop of thread index {@code loop}. */
    public int idleIn(int loop) {
        return perLoop.get(loop);
    }

    /**
     * May a connection coming back from a transaction be kept (srv_add_to_idle_list)? When this loop has none
     * of its kind yet, or while idle and used ones stay within the estimated need (plus {@code pool-low-conn});
     * never above {@code pool-max-conn}, nor with a purge delay of 0. Counts it in when kept.
     */
    boolean admit(boolean isSafe, boolean loopHasSafe, boolean loopHasIdle, int loop) {
        int u = used.get();
        boolean wanted = !loopHasSafe && (isSafe || !loopHasIdle)
                || u + idle.get() <= Math.max(u, estimate) + settings.lowConn;
        if (settings.purgeDelay == 0 || !wanted) {
            return false;
        }
        if (idle.incrementAndGet() > settings.maxConn && settings.maxConn >= 0) {
            idle.decrementAndGet();
            return false;
        }
        perLoop.incrementAndGet(loop);
        if (isSafe) {
            safe.incrementAndGet();
        }
        return true;
    }

    /** An idle connection of loop {@code loop} left its list (reused, taken over, closed). */
    void leave(boolean isSafe, int loop) {
        idle.decrementAndGet();
        perLoop.decrementAndGet(loop);
        if (isSafe) {
            safe.decrementAndGet();
        }
    }

    /** Starts the purge task on {@code loop} unless it runs already: it stops when no idle connection is left. */
    void armPurge(EventExecutor loop) {
        if (purgeArmed.compareAndSet(false, true)) {
            loop.schedule(() -> purge(loop), settings.purgeDelay, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Every {@code pool-purge-delay} (srv_cleanup_idle_conns): half of the connections above the need go, taken
     * from each loop in proportion to its idle ones; the need becomes the mean of the estimate and the most used
     * during the period, never less than the latter.
     */
    private void purge(EventExecutor loop) {
        int current = idle.get();
        if (current > 0) {
            int most = maxUsed.get();
            int exceed = used.get() + current - Math.max(most, estimate);
            estimate = Math.max((estimate + most) / 2, most);
            maxUsed.set(used.get());
            int toKill = exceed / 2 + (exceed & 1);
            if (toKill > 0) {
                for (int i = 0; i < MAX_LOOPS; i++) {
                    int here = perLoop.get(i);
                    if (here > 0) {
                        ServerPool.closeIdle(i, server, toKill * here / current + 1);
                    }
                }
            }
        }
        purgeArmed.set(false);
        if (idle.get() > 0) {
            armPurge(loop);
        }
    }
}
