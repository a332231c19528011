package io.fulcrum.pool;

import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopActivity;
import io.fulcrum.server.Server;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.ThreadExecutorMap;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Idle server connections of one event loop, per server, in two lists as HAProxy's: "idle" ones, which carried
 * one request, and "safe" ones, which carried more and so proved the server keeps connections open. A loop
 * touches only its own lists (no lock); another loop that has none may take one over: it asks this loop, which
 * hands the channel over (deregistered here, registered there). What all loops share is in {@link ServerIdle}.
 */
public final class ServerPool {
    private static final FastThreadLocal<ServerPool> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected ServerPool initialValue() {
            ServerPool p = new ServerPool(EventLoops.threadIndex(), ThreadExecutorMap.currentExecutor() instanceof EventLoop l ? l : null);
            if (p.loop != null) {
                LOOPS.set(p.index, p);
            }
            return p;
        }
    };
    /** Each loop's pool, by thread index, for takeovers and purges. */
    private static final AtomicReferenceArray<ServerPool> LOOPS = new AtomicReferenceArray<>(ServerIdle.MAX_LOOPS);
    /** {@code tune.idle-pool.shared}: a loop may take idle connections over from the others. */
    private static volatile boolean shareIdle = true;

    private final int index;
    private final EventLoop loop;
    private final Map<Server, Lists> lists = new HashMap<>();

    private static final class Lists {
        final ServerIdle shared;
        /** This loop's counts in {@link #shared} (made here, so this loop's own). */
        final AtomicLongArray cell;
        final ArrayDeque<Channel> idle = new ArrayDeque<>();
        final ArrayDeque<Channel> safe = new ArrayDeque<>();

        Lists(Server server) {
            this.shared = ServerIdle.of(server);
            this.cell = shared.cells.mine();
        }
    }

    private ServerPool(int index, EventLoop loop) {
        this.index = index;
        this.loop = loop;
    }

    /** The pool of the calling event loop. */
    public static ServerPool current() {
        return PER_LOOP.get();
    }

    private Lists lists(Server server) {
        Lists l = lists.get(server);
        if (l == null) {
            l = new Lists(server);
            lists.put(server, l);
        }
        return l;
    }

    /**
     * An idle, still open connection to {@code server} of this loop that {@code pick} allows, or null. A first
     * request under {@code http-reuse always} takes one of this loop's idle (not safe) connections only when no other
     * loop could hand it a safe one: HAProxy looks for a safe connection in every thread before it looks for an idle
     * one. A connection found here makes the next takeover start at the loop after this one, as in HAProxy. Unless
     * {@code to} is null, only a connection opened with that key will do (HAProxy's connection hash).
     */
    public Channel acquire(Server server, Pick pick, ReuseKey to) {
        if (pick == Pick.NONE) {
            return null;
        }
        Lists l = lists(server);
        Channel ch;
        if (pick == Pick.SAFE_FIRST) {
            ch = pollOpen(l, l.safe, to);
            if (ch == null && (!mayTakeOver(l.shared) || lender(l.shared, true) < 0)) {
                ch = pollOpen(l, l.idle, to);
            }
        } else {
            ch = poll(l, pick, to);
        }
        if (ch != null) {
            server.counters().increment(Counters.Count.REUSES);
            ServerIdle.foundIn(l.cell);
        }
        return ch;
    }

    /**
     * When this loop has none, asks another loop for an idle connection to {@code server} (conn_backend_get):
     * unless {@code tune.idle-pool.shared} is off, only while the server has at least {@code pool-low-conn} idle
     * ones, looking first at the loop after the last one a connection was found in. A first request under
     * {@code aggressive} or {@code always} looks for a safe one first (only, under aggressive), then for any, as
     * HAProxy's two lookups. {@code done} runs on this loop with the channel, registered here, or null when none
     * could be had (see {@link #lookAgain}). False when no loop was asked ({@code done} will not run). {@code to}: as
     * {@link #acquire}'s.
     */
    public boolean takeOver(Server server, Pick pick, ReuseKey to, Consumer<Channel> done) {
        // HAProxy's lookups visit each other thread once for a safe connection, then once for any.
        return ask(server, new Asked(this, pick, to, 2 * lists(server).shared.cells.width(), done));
    }

    /** {@link #takeOver}, which may look again {@code a.tries} more times when a loop asked had none left. */
    private boolean ask(Server server, Asked a) {
        Pick pick = a.pick;
        ServerIdle counts = lists(server).shared;
        if (pick == Pick.NONE || !mayTakeOver(counts)) {
            return false;
        }
        Pick handed = pick == Pick.ANY ? Pick.ANY : Pick.SAFE;
        int from = lender(counts, handed == Pick.SAFE);
        if (from < 0 && pick == Pick.SAFE_FIRST) {
            handed = Pick.ANY;
            from = lender(counts, false);
        }
        if (from < 0) {
            return false;
        }
        ServerPool other = LOOPS.get(from);
        Pick p = handed;
        other.loop.execute(() -> other.handOver(server, p, a));
        return true;
    }

    /**
     * A loop's request for an idle connection: that loop's pool, what the request may take, the destination it must
     * have (null: any), the lookups left and what to do with it.
     */
    private record Asked(ServerPool by, Pick pick, ReuseKey to, int tries, Consumer<Channel> done) {
        Asked again() {
            return new Asked(by, pick, to, tries - 1, done);
        }
    }

    /**
     * On the asking loop: the loop asked had no connection left by the time it was asked (its own request took it,
     * a purge closed it), or the move failed. As HAProxy's lookup, which goes on to the next threads and then from
     * safe connections to idle ones, this loop does not open one at once: it looks at its own lists again (one may
     * have come back meanwhile), then asks the next loop that has one, while tries are left. {@code done} gets what
     * is found, or null.
     */
    private void lookAgain(Server server, Asked a) {
        Channel ch = acquire(server, a.pick, a.to);
        if (ch != null || a.tries <= 0 || !ask(server, a.again())) {
            a.done.accept(ch);
        }
    }

    /** Loops share their idle connections, and the server has at least {@code pool-low-conn} of them. */
    private boolean mayTakeOver(ServerIdle counts) {
        if (!shareIdle || loop == null) {
            return false;
        }
        int total = counts.idleCount();
        return total > 0 && total >= counts.settings.lowConn;
    }

    /**
     * The first other loop, from the server's next takeover on, that has safe ({@code safe}) or any idle
     * connections to it, or -1. (A start beyond the loops that have any goes round to 0, as HAProxy's.)
     */
    private int lender(ServerIdle counts, boolean safe) {
        int w = counts.cells.width();
        int start = counts.nextTakeover();
        start = start >= w ? 0 : start;
        for (int k = 0; k < w; k++) {
            int i = (start + k) % w;
            if (i != index && LOOPS.get(i) != null && (safe ? counts.safeIn(i) : counts.idleIn(i)) > 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * On the loop holding it: gives one of its idle connections that {@code pick} allows to the asking loop. The
     * connection counts as used from here on, as HAProxy counts it when it takes it: in between it is in neither
     * list, and a connection coming back meanwhile must not be closed as one too many.
     */
    private void handOver(Server server, Pick pick, Asked a) {
        Lists l = lists(server);
        ServerPool to = a.by;
        Channel ch = poll(l, pick, a.to);
        if (ch == null) {
            to.loop.execute(() -> to.lookAgain(server, a));
            return;
        }
        ServerIdle.foundIn(l.cell);
        l.shared.used();
        ch.config().setAutoRead(false);
        ch.deregister().addListener(d -> {
            if (!d.isSuccess()) {
                l.shared.unused();
                ch.close();
                to.loop.execute(() -> to.lookAgain(server, a));
                return;
            }
            to.loop.register(ch).addListener(r -> { // (runs on the new loop)
                l.shared.unused(); // (the transaction counts it again)
                if (r.isSuccess()) {
                    LoopActivity.tookOver();
                    server.counters().increment(Counters.Count.REUSES);
                    a.done.accept(ch);
                } else {
                    ch.close();
                    to.lookAgain(server, a);
                }
            });
        });
    }

    /**
     * Takes the first open connection {@code pick} allows, the oldest of a list first, as HAProxy's tree of idle
     * connections gives those of one hash in the order they came in; counts it out. {@code to}: as {@link #acquire}'s.
     */
    private Channel poll(Lists l, Pick pick, ReuseKey to) {
        ArrayDeque<Channel> first = pick == Pick.SAFE || pick == Pick.SAFE_FIRST ? l.safe : l.idle;
        ArrayDeque<Channel> second = pick == Pick.SAFE ? null : first == l.safe ? l.idle : l.safe;
        Channel ch = pollOpen(l, first, to);
        return ch != null || second == null ? ch : pollOpen(l, second, to);
    }

    /** The oldest open connection of {@code q} opened with the key {@code to} (null: any), taken out; closed ones met go too. */
    private Channel pollOpen(Lists l, ArrayDeque<Channel> q, ReuseKey to) {
        for (Iterator<Channel> it = q.iterator(); it.hasNext(); ) {
            Channel ch = it.next();
            boolean open = ch.isActive();
            if (!open || ReuseKey.fits(ch, to)) {
                it.remove();
                ServerIdle.leave(l.cell, q == l.safe);
                if (open) {
                    return ch;
                }
            }
        }
        return null;
    }

    /**
     * Keeps {@code ch}, done with a transaction, for a later request, in the safe list when it carried more than
     * one request, if the server's pool admits it (see {@link ServerIdle#admit}). False: the caller closes it.
     */
    public boolean release(Server server, Channel ch, boolean isSafe) {
        Lists l = lists(server);
        if (!l.shared.admit(l.cell, isSafe, !l.safe.isEmpty(), !l.idle.isEmpty())) {
            return false;
        }
        (isSafe ? l.safe : l.idle).addLast(ch);
        if (loop != null) {
            l.shared.armPurge(loop);
        }
        return true;
    }

    /** Forgets {@code ch}: the server closed it while it was idle. */
    public void remove(Server server, Channel ch) {
        Lists l = lists.get(server);
        if (l == null) {
            return;
        }
        if (l.idle.remove(ch)) {
            ServerIdle.leave(l.cell, false);
        } else if (l.safe.remove(ch)) {
            ServerIdle.leave(l.cell, true);
        }
    }

    /** {@code tune.idle-pool.shared}, set by each configuration loaded. */
    static void shareBetweenLoops(boolean on) {
        shareIdle = on;
    }

    /** A server deleted at run time: each loop closes its idle connections to it and forgets it. */
    static void forget(Server server) {
        for (int i = 0; i < LOOPS.length(); i++) {
            ServerPool p = LOOPS.get(i);
            if (p != null && !p.loop.isShuttingDown()) {
                p.loop.execute(() -> {
                    Lists l = p.lists.remove(server);
                    if (l != null) {
                        l.idle.forEach(Channel::close);
                        l.safe.forEach(Channel::close);
                    }
                });
            }
        }
        ServerIdle.forget(server);
    }

    /** Closes up to {@code n} idle connections to {@code server} of the loop of thread index {@code loop}, unsafe ones first. */
    static void closeIdle(int loop, Server server, int n) {
        ServerPool p = LOOPS.get(loop);
        if (p != null && !p.loop.isShuttingDown()) { // (a purge racing the loops' shutdown)
            p.loop.execute(() -> p.close(server, n));
        }
    }

    private void close(Server server, int n) {
        Lists l = lists(server);
        for (int i = 0; i < n; i++) {
            boolean fromIdle = !l.idle.isEmpty();
            Channel ch = (fromIdle ? l.idle : l.safe).pollFirst();
            if (ch == null) {
                return;
            }
            ServerIdle.leave(l.cell, !fromIdle);
            ch.close();
        }
    }
}
