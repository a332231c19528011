package io.fulcrum.runtime;

import io.fulcrum.cfg.Diagnostics;

/**
 * HAProxy's file descriptor arithmetic: the process's {@code maxconn} (derived from the limit on open files when the
 * configuration does not set it), {@code maxsock} (every descriptor the process may need) and the limit it asks the
 * system for ({@code ulimit-n}, else maxsock), as {@code show info} reports them (Maxconn, Maxsock, Ulimit-n).
 */
public final class FdBudget {
    /** Descriptors HAProxy sets aside whatever the configuration. */
    static final int RESERVED = 10;
    /** Each thread's poller and its wake-up pipe's two ends. */
    private static final int PER_THREAD = 3;

    private final GlobalSettings global;
    private final int maxconn;
    private final long maxsock;
    private long ulimitN;

    /**
     * @param sockets the descriptors the configuration itself takes: one a listening socket, one a server's check
     *                and agent, and the stats sockets' {@code maxconn}
     * @param bootMax the greater of the soft and hard limits at start, which the automatic maxconn uses up
     */
    public FdBudget(GlobalSettings global, int sockets, long bootMax) {
        this.global = global;
        long threads = (long) PER_THREAD * global.effectiveNbthread();
        long fixed = RESERVED + sockets;
        int conns = global.maxconn;
        if (conns <= 0) {
            long remain = bootMax < 0 ? Integer.MAX_VALUE : bootMax;
            if (global.fdHardLimit > 0 && remain > global.fdHardLimit) {
                remain = global.fdHardLimit;
            }
            conns = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (remain - fixed - threads) / 2));
        }
        this.maxconn = conns;
        this.maxsock = fixed + 2L * conns + threads;
        this.ulimitN = global.ulimitN != 0 ? global.ulimitN : maxsock;
    }

    /** The configured or automatic global maxconn (Hard_maxconn). */
    public int maxconn() {
        return maxconn;
    }

    public long maxsock() {
        return maxsock;
    }

    /** The limit asked for, or what the system gave when it refused and {@code strict-limits} is off. */
    public long ulimitN() {
        return ulimitN;
    }

    /**
     * Raises the limit on open files to {@link #ulimitN()} as HAProxy does at start: when the system refuses, or
     * {@code fd-hard-limit} forbids it, an alert and false with {@code strict-limits}, else as high as allowed and a
     * warning. An alert follows (and the start goes on) when the limit stays below maxsock.
     */
    public boolean apply(Diagnostics diag) {
        long hard = global.fdHardLimit;
        LibC.RLimit wanted = new LibC.RLimit(ulimitN, unsignedMax(FdLimit.bootMax(), ulimitN));
        if ((hard > 0 && ulimitN > hard) || !FdLimit.raise(wanted)) {
            long now = capped(FdLimit.current().cur);
            if (global.strictLimits) {
                diag.alert("[fulcrum.main()] Cannot raise FD limit to " + (int) ulimitN + ", limit is " + (int) now + ".");
                return false;
            }
            LibC.RLimit most = FdLimit.current();
            FdLimit.raise(new LibC.RLimit(capped(most.max), most.max));
            long got = FdLimit.current().cur;
            diag.warning("[fulcrum.main()] Cannot raise FD limit to " + (int) ulimitN + ", limit is " + (int) got + ".");
            ulimitN = got;
        }
        long limit = FdLimit.current().cur;
        if (limit >= 0 && limit < maxsock) {
            diag.alert("[fulcrum.main()] FD limit (" + limit + ") too low for maxconn=" + maxconn + "/maxsock=" + maxsock
                    + ". Please raise 'ulimit-n' to " + maxsock + " or more to avoid any trouble.");
        }
        return true;
    }

    /** {@code limit} lowered to {@code fd-hard-limit} when that is set and lower. */
    private long capped(long limit) {
        long hard = global.fdHardLimit;
        return hard > 0 && Long.compareUnsigned(limit, hard) > 0 ? hard : limit;
    }

    private static long unsignedMax(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }
}
