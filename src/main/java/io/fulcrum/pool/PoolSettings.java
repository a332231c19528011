package io.fulcrum.pool;

import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;

/** A server's idle-connection options: {@code pool-max-conn}, {@code pool-low-conn}, {@code pool-purge-delay}, {@code max-reuse}. */
public final class PoolSettings implements ServerSpec.ServerPart {
    private static final PoolSettings DEFAULTS = new PoolSettings();

    /** Idle connections kept for the server, all loops together; -1: no limit, 0: none. */
    public int maxConn = -1;
    /** Below this many idle connections (all loops), a loop does not take one over from another loop. */
    public int lowConn;
    /** Every this many milliseconds, half of the idle connections above the estimated need are closed; 0: none kept. */
    public long purgeDelay = 5000;
    /** Requests a connection carries after its first one; -1: no limit, 0: no keep-alive. */
    public int maxReuse = -1;

    @Override
    public PoolSettings copy() {
        PoolSettings c = new PoolSettings();
        c.maxConn = maxConn;
        c.lowConn = lowConn;
        c.purgeDelay = purgeDelay;
        c.maxReuse = maxReuse;
        return c;
    }

    /** The settings of {@code server} (HAProxy's defaults when its line has none). */
    public static PoolSettings of(Server server) {
        PoolSettings p = server.spec().partOrNull(PoolSettings.class);
        return p == null ? DEFAULTS : p;
    }

    /** May a connection that carried {@code requests} requests carry one more? */
    public boolean reusableAfter(long requests) {
        return maxReuse < 0 || requests <= maxReuse;
    }
}
