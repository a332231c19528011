package io.fulcrum.runtime;

import com.sun.jna.LastErrorException;

/**
 * The process's RLIMIT_NOFILE, through getrlimit/setrlimit: its value at start, and HAProxy's way of changing it,
 * which only ever raises it. Values are C's unsigned {@code rlim_t} held in longs (-1: unlimited).
 */
public final class FdLimit {
    /** The limit when the process started (the JVM raises the soft limit to the hard one before main). */
    private static final LibC.RLimit BOOT = current();

    private FdLimit() {
    }

    /** The soft limit at start. */
    public static long bootCurrent() {
        return BOOT.cur;
    }

    /** The hard limit at start. */
    public static long bootMax() {
        return BOOT.max;
    }

    /** The limit now; at start, or {1024, 1024} when the system does not say (not Linux). */
    public static LibC.RLimit current() {
        LibC.RLimit l = new LibC.RLimit();
        try {
            LibC.calls().getrlimit(LibC.RLIMIT_NOFILE, l);
        } catch (LastErrorException | UnsatisfiedLinkError e) {
            return new LibC.RLimit(1024, 1024);
        }
        return l;
    }

    /**
     * HAProxy's raise_rlim_nofile: sets the limit to {@code wanted} when one of its two values is higher than now
     * (nothing is lowered); false when the system refused.
     */
    public static boolean raise(LibC.RLimit wanted) {
        LibC.RLimit now = current();
        if (Long.compareUnsigned(now.max, wanted.max) >= 0 && Long.compareUnsigned(now.cur, wanted.cur) >= 0) {
            return true;
        }
        try {
            LibC.calls().setrlimit(LibC.RLIMIT_NOFILE, wanted);
            return true;
        } catch (LastErrorException e) {
            return false;
        }
    }
}
