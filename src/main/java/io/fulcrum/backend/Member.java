package io.fulcrum.backend;

import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;

import java.util.concurrent.TimeUnit;

/**
 * A server as its backend's load balancing sees it: its connection slots (HAProxy's {@code served} is the
 * server's current streams), its queue, and its slow start. Read from every event loop.
 */
final class Member {
    /** HAProxy's weight scale: an effective weight is the user weight times 16 at full speed. */
    static final int SCALE = 16;

    final Server server;
    final Backend backend;
    final PendingQueue queue = new PendingQueue();
    /** When it last came back up with a slow start ({@link System#nanoTime()}); 0 when it runs at full speed. */
    volatile long rampStart;
    /** Among the servers in use in the current plan (active ones, else the backups in use). */
    volatile boolean inFarm;
    /** Usable at the last plan (guarded by the backend's plan lock). */
    boolean wasUsable;

    Member(Backend backend, Server server) {
        this.backend = backend;
        this.server = server;
    }

    ServerSpec spec() {
        return server.spec();
    }

    /** Streams holding a slot of this server (HAProxy's served, %sc). */
    int served() {
        return server.streams().current();
    }

    /**
     * The effective weight, scaled by {@link #SCALE}: during a slow start of a dynamic algorithm it grows
     * from 1/16 of the weight, by whole seconds, as HAProxy's server_recalc_eweight() does.
     */
    int effectiveWeight(boolean dynamic, long now) {
        int w = server.weight();
        long seconds = slowstartSeconds();
        if (!dynamic || rampStart == 0 || seconds == 0) {
            return w * SCALE;
        }
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(now - rampStart);
        if (elapsed >= seconds) {
            return w * SCALE;
        }
        return (int) (w * ((SCALE * elapsed + seconds) / seconds));
    }

    /** HAProxy keeps slowstart in whole seconds, rounded up. */
    long slowstartSeconds() {
        return (spec().slowstart + 999) / 1000;
    }

    /**
     * The connection limit now (HAProxy's srv_dynamic_maxconn): maxconn, or with minconn a ramp between both
     * following the backend's load up to fullconn, cut further during a slow start. 0 means no limit.
     */
    int dynamicMaxconn() {
        int maxconn = server.maxconn();
        if (maxconn == 0) {
            return 0;
        }
        int max;
        int minconn = server.minconn() == 0 ? maxconn : server.minconn();
        long beconn = backend.streams().current();
        int fullconn = backend.fullconn();
        if (beconn >= fullconn || minconn == maxconn) {
            max = maxconn;
        } else {
            max = (int) Math.max(minconn, beconn * maxconn / fullconn);
        }
        long ramp = rampStart;
        long seconds = slowstartSeconds();
        if (ramp != 0 && seconds > 0) {
            long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - ramp);
            if (elapsed < seconds) {
                max = (int) Math.max(1, (long) max * (100 * elapsed / seconds) / 100);
            }
        }
        return max;
    }

    /** It takes no more streams now: at its limit, or others already wait for it (HAProxy's "full"). */
    boolean full() {
        return server.maxconn() != 0 && (queue.size() > 0 || served() >= dynamicMaxconn());
    }

    /** Takes one of its slots if one is free and nobody waits; always when it has no limit. */
    boolean tryTake() {
        if (server.maxconn() == 0) {
            server.streams().tryAcquire();
            return true;
        }
        return queue.size() == 0 && tryTakeForQueue();
    }

    /** Takes a slot for a stream coming out of a queue: only the limit counts (a limit below 1 has none, as in HAProxy). */
    boolean tryTakeForQueue() {
        int max = dynamicMaxconn();
        return (max > 0 || server.maxconn() == 0) && server.streams().tryAcquire(max);
    }
}
