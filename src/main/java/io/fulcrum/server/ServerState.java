package io.fulcrum.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server's state, as HAProxy's server.c keeps it: the administrative flags (maintenance and drain, forced
 * from the CLI, configured with {@code disabled}, or inherited from the tracked server), the operational
 * state the checks find, and the weight the CLI or the agent set. Transitions take one process-wide lock
 * (they are rare, and tracking crosses backends) and log HAProxy's lines; the data path reads
 * {@link #usable()} and {@link #weight()} from volatile fields.
 */
public final class ServerState {

    /** The operational state (HAProxy's SRV_ST_*): STOPPED is DOWN, STOPPING is NOLB. */
    public enum Op { STOPPED, STARTING, RUNNING, STOPPING }

    /** Forced maintenance (CLI {@code disable server}, {@code set server ... state maint}, the agent's "maint"). */
    public static final int FMAINT = 0x01;
    /** Maintenance inherited from the tracked server. */
    public static final int IMAINT = 0x02;
    /**
     * The server was {@code disabled} in the configuration: set with {@link #FMAINT}, and kept as a mark (not a
     * maintenance of its own) once {@code enable server} clears FMAINT, as in HAProxy.
     */
    public static final int CMAINT = 0x04;
    /** Forced drain (CLI, the agent's "drain"). */
    public static final int FDRAIN = 0x08;
    /** Drain inherited from the tracked server. */
    public static final int IDRAIN = 0x10;
    /** Maintenance because the server's name does not resolve (HAProxy's SRV_ADMF_RMAINT): set and cleared by its resolvers. */
    public static final int RMAINT = 0x20;
    /** A mark (no maintenance) of a server whose name was set at run time, as by an SRV record (HAProxy's SRV_ADMF_HMAINT). */
    public static final int HMAINT = 0x40;
    private static final int MAINT = FMAINT | IMAINT | RMAINT;
    private static final int DRAIN = FDRAIN | IDRAIN;

    static final Object LOCK = new Object();

    private final Server server;
    private final ServerGroup group;
    private final int initialWeight;
    private volatile int admin;
    private volatile Op op;
    private volatile int userWeight;
    private volatile boolean usable;
    /** When the state last changed (System.currentTimeMillis), and the down time before that. */
    private volatile long lastChange = System.currentTimeMillis();
    private volatile long downtime;
    private final AtomicLong checkFailures = new AtomicLong();
    private final AtomicLong checkDowns = new AtomicLong();
    private Server tracked;
    private final List<Server> trackers = new ArrayList<>();

    ServerState(Server server, ServerGroup group, ServerSpec spec) {
        this.server = server;
        this.group = group;
        this.initialWeight = spec.weight;
        this.userWeight = spec.weight;
        // A name that did not resolve and init-addr none: in resolution maintenance until resolvers find it, as HAProxy.
        boolean resolved = spec.fqdn != null || spec.srvRecord != null;
        // A server added at run time starts in forced maintenance (HAProxy's add server), without resolution maintenance.
        this.admin = (spec.disabled ? CMAINT | FMAINT : 0) | (spec.dynamic && !spec.enabled ? FMAINT : 0)
                | (spec.endpoint == null && resolved && !spec.dynamic ? RMAINT : 0);
        this.op = spec.endpoint == null ? Op.STOPPED : Op.RUNNING;
        recompute();
    }

    public boolean usable() {
        return usable;
    }

    /** The user weight (during a slow start, the effective one is Backend.effectiveWeight). */
    public int weight() {
        return userWeight;
    }

    /** Its backend's servers. */
    public ServerGroup group() {
        return group;
    }

    public int initialWeight() {
        return initialWeight;
    }

    public Op op() {
        return op;
    }

    public int admin() {
        return admin;
    }

    public boolean inMaintenance() {
        return (admin & MAINT) != 0;
    }

    public boolean draining() {
        return (admin & DRAIN) != 0;
    }

    /** Up as {@code srv_is_up} says: not in maintenance nor down. */
    public boolean up() {
        return !inMaintenance() && op != Op.STOPPED;
    }

    /** Seconds since the last change ({@code lastchg}). */
    public long lastChangeSeconds() {
        return (System.currentTimeMillis() - lastChange) / 1000;
    }

    /** Total seconds spent down ({@code downtime}), including the current period. */
    public long downtimeSeconds() {
        long d = downtime;
        if (!up()) {
            d += System.currentTimeMillis() - lastChange;
        }
        return d / 1000;
    }

    /** Failed checks ({@code chkfail}). */
    public long checkFailures() {
        return checkFailures.get();
    }

    /** Transitions to DOWN, maintenance included ({@code chkdown}). */
    public long checkDowns() {
        return checkDowns.get();
    }

    /** A failed check of a server that was not down yet ({@code chkfail}). */
    public void checkFailed() {
        checkFailures.incrementAndGet();
    }

    /** The state the server starts in, before any traffic ({@code init-state}): not logged. */
    public void initially(Op start) {
        synchronized (LOCK) {
            op = start;
            recompute();
            group.recount();
        }
    }

    /** A server deleted at run time stops tracking: the tracked server no longer tells it its states. */
    public void untrack() {
        synchronized (LOCK) {
            if (tracked != null) {
                tracked.state().trackers.remove(server);
                tracked = null;
            }
        }
    }

    /** Other servers track this one. */
    public boolean hasTrackers() {
        synchronized (LOCK) {
            return !trackers.isEmpty();
        }
    }

    /** The server this one tracks ({@code track}), or null. */
    public Server tracked() {
        return tracked;
    }

    /** Makes this server follow {@code target}'s states, from now on (configuration time). */
    public void track(Server target) {
        synchronized (LOCK) {
            tracked = target;
            target.state().trackers.add(server);
            admin = admin & ~(IMAINT | IDRAIN) | inherited(target.state());
            op = target.state().op;
            recompute();
        }
    }

    private static int inherited(ServerState t) {
        return (t.admin & MAINT) != 0 ? IMAINT : (t.admin & DRAIN) != 0 ? IDRAIN : 0;
    }

    /**
     * The operational state the checks or the CLI found.
     *
     * @param why what follows "is UP" / "is DOWN" in the log line (", reason: ...", ", changed from CLI"), or
     *            "" when the check's own line said it
     */
    public void setOp(Op next, String why) {
        setOp(next, why, -1);
    }

    /**
     * The same, the DOWN line telling {@code active} sessions (negative: the server's now): those it had when the
     * verdict was made, as HAProxy's line, written in the same breath.
     */
    public void setOp(Op next, String why, int active) {
        synchronized (LOCK) {
            changeOp(next, why, active);
        }
    }

    private void changeOp(Op next, String why, int active) {
        if (next == op) {
            return;
        }
        boolean wasUp = up();
        Op prev = op;
        op = next;
        stamp(wasUp);
        recompute();
        if (next == Op.STOPPED && prev != Op.STOPPED) {
            checkDowns.incrementAndGet();
        }
        // The load balancers learn of it before the line is written (a request sent after reading it must not go
        // to a server the line says is down); the backend's own state ("no server available") comes after.
        server.changed();
        if (!inMaintenance()) {
            String is = switch (next) {
                case STOPPED -> "DOWN";
                case STOPPING -> "stopping";
                default -> "UP";
            };
            String line = named() + " is " + is + why + ". " + (next == Op.STOPPED ? left(active) : online());
            log(next == Op.STOPPED, line);
        }
        for (Server t : reversedTrackers()) {
            t.state().changeOp(next, " via " + server.id(), -1);
        }
        group.settled();
    }

    /** Sets an administrative flag ({@link #FMAINT}, {@link #FDRAIN}...). */
    public void setAdmin(int flag) {
        synchronized (LOCK) {
            addAdmin(flag, "");
        }
    }

    /** Sets an administrative flag for {@code reason} (" (DNS NX status)"), which the maintenance line gives. */
    public void setAdmin(int flag, String reason) {
        synchronized (LOCK) {
            addAdmin(flag, reason);
        }
    }

    /** Sets administrative flags saved in a server-state file, before any traffic: not logged, as in HAProxy. */
    public void restoreAdmin(int flags) {
        synchronized (LOCK) {
            admin |= flags;
            recompute();
            server.changed();
            group.settled();
        }
    }

    /** The time of the last change a server-state file saved, {@code seconds} before now. */
    public void restoreLastChange(long seconds) {
        lastChange = System.currentTimeMillis() - seconds * 1000;
    }

    /** Clears an administrative flag. */
    public void clearAdmin(int flag) {
        synchronized (LOCK) {
            removeAdmin(flag);
        }
    }

    private void addAdmin(int flag, String via) {
        int before = admin;
        if ((before & flag) == flag) {
            return;
        }
        boolean wasUp = up();
        admin = before | flag;
        boolean maint = (flag & MAINT) != 0 && (before & MAINT) == 0;
        boolean drain = !maint && (flag & DRAIN) != 0 && (before & (DRAIN | MAINT)) == 0;
        if (maint || drain) { // HAProxy's lastchg counts from entering drain too
            stamp(wasUp);
        }
        recompute();
        server.changed(); // before the line, as in changeOp
        if (maint) {
            if (op != Op.STOPPED) {
                checkDowns.incrementAndGet(); // HAProxy counts a running server going to maintenance as a down transition
                log(true, named() + " is going DOWN for maintenance" + via + ". " + left());
            } else {
                log(false, named() + " was DOWN and now enters maintenance" + via + ".");
            }
            inherit(IMAINT);
        } else if (drain) {
            log(false, named() + " enters drain state" + via + ". " + (op == Op.STOPPED ? left() : online()));
            inherit(IDRAIN);
        }
        group.settled();
    }

    private void removeAdmin(int flags) {
        int before = admin;
        if ((before & flags) == 0) {
            return;
        }
        boolean wasUp = up();
        admin = before & ~flags;
        boolean forced = (flags & (IMAINT | IDRAIN)) == 0;
        boolean leftMaint = (before & MAINT) != 0 && (admin & MAINT) == 0;
        boolean leftDrain = !leftMaint && (before & DRAIN) != 0 && (admin & (DRAIN | MAINT)) == 0;
        if (leftMaint) {
            // Back from maintenance: the checks start again from a server that is up, as in HAProxy.
            op = tracked != null ? tracked.state().op : server.endpoint() == null ? Op.STOPPED : Op.RUNNING;
            stamp(wasUp);
        } else if (leftDrain) {
            stamp(wasUp);
        }
        recompute();
        server.changed(); // before the line, as in changeOp
        if (leftMaint && flags == RMAINT) {
            log(false, named() + " ('" + server.fqdn() + "') is " + (op == Op.STOPPED ? "DOWN" : "UP") + "/"
                    + (draining() ? "DRAIN" : "READY") + " (resolves again).");
            uninherit();
        } else if (leftMaint) {
            log(false, named() + " is " + (op == Op.STOPPED ? "DOWN" : "UP") + "/" + (draining() ? "DRAIN" : "READY")
                    + " (leaving " + (forced ? "forced " : "") + "maintenance).");
            uninherit();
        } else if (leftDrain) {
            log(false, named() + " is " + (op == Op.STOPPED ? "DOWN" : "UP") + " (leaving " + (forced ? "forced " : "") + "drain).");
            uninherit();
        }
        group.settled();
    }

    /** Passes maintenance or drain on to the trackers. */
    private void inherit(int flag) {
        for (Server t : reversedTrackers()) {
            t.state().addAdmin(flag, " via " + server.id());
        }
    }

    /** Gives the trackers back what they inherited, once this server has neither. */
    private void uninherit() {
        for (Server t : reversedTrackers()) {
            ServerState ts = t.state();
            if (!inMaintenance()) {
                ts.removeAdmin(IMAINT);
            }
            if (!draining()) {
                ts.removeAdmin(IDRAIN);
            }
        }
    }

    /** HAProxy walks its trackers' list from the last one declared. */
    private List<Server> reversedTrackers() {
        return trackers.reversed();
    }

    /** The user weight (CLI {@code set weight}, the agent); the caller checked its range. */
    public void setWeight(int weight) {
        synchronized (LOCK) {
            if (weight == userWeight) {
                return;
            }
            userWeight = weight;
            recompute();
            server.changed();
            group.settled();
        }
    }

    private void stamp(boolean wasUp) {
        long now = System.currentTimeMillis();
        if (!wasUp) {
            downtime += now - lastChange;
        }
        lastChange = now;
    }

    /** HAProxy's srv_is_usable(): a weight, no maintenance nor drain, running or starting. */
    private void recompute() {
        usable = userWeight > 0 && (admin & (MAINT | DRAIN)) == 0 && (op == Op.RUNNING || op == Op.STARTING)
                && server.endpoint() != null;
    }

    /** "Server be/s1", or "Backup Server be/b1": how HAProxy's state-change lines name a server. */
    public String named() {
        return (server.spec().backup ? "Backup Server " : "Server ") + server.id();
    }

    private void log(boolean alert, String line) {
        if (alert) {
            group.events().alert(line);
        } else {
            group.events().notice(line);
        }
    }

    private String left() {
        return left(-1);
    }

    private String left(int active) {
        return servers("left") + " " + (active >= 0 ? active : server.streams().current()) + " sessions active, "
                + server.requeued() + " requeued, " + server.waiting() + " remaining in queue.";
    }

    private String online() {
        return servers("online") + " " + server.requeued() + " sessions requeued, " + server.waiting() + " total in queue.";
    }

    /** "N active and M backup servers left." as HAProxy counts them, and its note when only backups remain. */
    private String servers(String what) {
        int active = group.usableCount(false);
        int backup = group.usableCount(true);
        return active + " active and " + backup + " backup servers " + what + "." + (active == 0 && backup > 0 ? " Running on backup." : "");
    }
}
