package io.fulcrum.pool;

import io.fulcrum.server.Server;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Idle server connections of one event loop, per server: a connection that finished a response and may
 * carry another request waits here until a stream of the same loop takes it. Only touched by its own
 * loop, so it takes no lock. (Cross-loop takeover and the reuse policies come with the backends work.)
 */
public final class ServerPool {
    private static final FastThreadLocal<ServerPool> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected ServerPool initialValue() {
            return new ServerPool();
        }
    };

    private final Map<Server, ArrayDeque<Channel>> idle = new HashMap<>();

    /** The pool of the calling event loop. */
    public static ServerPool current() {
        return PER_LOOP.get();
    }

    /** An idle, still open connection to {@code server}, or null. */
    public Channel acquire(Server server) {
        ArrayDeque<Channel> q = idle.get(server);
        if (q == null) {
            return null;
        }
        Channel ch;
        while ((ch = q.pollLast()) != null) {
            if (ch.isActive()) {
                server.counters().increment(Counters.Count.REUSES);
                return ch;
            }
        }
        return null;
    }

    /**
     * Idle connections kept per server and loop. Without a bound, a load that opens a connection per
     * request ({@code http-reuse safe} with clients that close) would pile up idle connections until the
     * server refuses more. HAProxy sizes this from the connections recently in use (pool-purge-delay,
     * pool-max-conn); until that estimate exists, a fixed bound keeps the oldest out.
     */
    static final int MAX_IDLE_PER_SERVER = 64;

    /** Keeps {@code ch} for a later request; the oldest idle connection goes when the bound is reached. */
    public void release(Server server, Channel ch) {
        ArrayDeque<Channel> q = idle.computeIfAbsent(server, s -> new ArrayDeque<>());
        q.addLast(ch);
        if (q.size() > MAX_IDLE_PER_SERVER) {
            q.pollFirst().close();
        }
    }

    /** Forgets {@code ch}: the server closed it while it was idle. */
    public void remove(Server server, Channel ch) {
        ArrayDeque<Channel> q = idle.get(server);
        if (q != null) {
            q.remove(ch);
        }
    }

    /** Idle connections to {@code server} in this loop. */
    public int idleCount(Server server) {
        ArrayDeque<Channel> q = idle.get(server);
        return q == null ? 0 : q.size();
    }
}
