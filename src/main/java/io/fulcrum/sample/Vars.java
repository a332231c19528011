package io.fulcrum.sample;

import io.netty.channel.Channel;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The variables of one scope. Each value is a copy of the sample that was stored. When {@code tune.vars.*} limits are
 * set, the bytes they take are accounted as HAProxy 2.6 does: 80 bytes a variable, plus the length of a string or
 * binary value, counted in its scope and in each scope that includes it (reqres in txn, txn in sess, sess in proc,
 * everything in global); a value that would take a scope over its limit is not stored.
 */
public final class Vars {
    /** What HAProxy 2.6 counts for a variable besides its string or binary contents (its struct var). */
    static final int OVERHEAD = 80;
    private static volatile VarLimits limits = new VarLimits();
    /** The bytes of every variable of the process, for tune.vars.global-max-size. */
    private static final AtomicLong GLOBAL_SIZE = new AtomicLong();
    /** The bytes of the proc scope and those it includes (the sessions'), shared by every thread. */
    private static final AtomicLong PROC_SIZE = new AtomicLong();

    /** The process-wide scope, shared by every thread. */
    public static final Vars PROC = new Vars(new ConcurrentHashMap<>(), VarScope.PROC, null);

    private final Map<String, Sample> values;
    private final VarScope scope;
    /** The scope whose size includes this one's (sess for txn...), or null for proc. */
    private final Vars parent;
    /** The bytes accounted in this scope and those it includes (not for proc: PROC_SIZE), only while limits are set. */
    private long size;

    private Vars(Map<String, Sample> values, VarScope scope, Vars parent) {
        this.values = values;
        this.scope = scope;
        this.parent = parent;
    }

    /** The variables of {@code scope} within {@code parent} (sess within proc, txn within sess, req/res within txn). */
    public Vars(VarScope scope, Vars parent) {
        this(new HashMap<>(4), scope, parent);
    }

    /** Sets the limits read from the configuration (none: no accounting). */
    static void limit(VarLimits l) {
        limits = l;
        GLOBAL_SIZE.set(0); // (set once before any traffic; a test JVM loads many configurations)
        PROC_SIZE.set(0);
    }

    private static final AttributeKey<Vars> SESSION = AttributeKey.valueOf(Vars.class, "session");

    /** The session variables of a client connection: they live as long as the connection. */
    public static Vars session(Channel client) {
        Attribute<Vars> a = client.attr(SESSION);
        Vars v = a.get();
        if (v == null) {
            v = new Vars(VarScope.SESS, PROC);
            a.set(v);
            if (!limits.none()) {
                Vars s = v;
                client.closeFuture().addListener(f -> s.release());
            }
        }
        return v;
    }

    public Sample get(String name) {
        return values.get(name);
    }

    /** Stores a copy of {@code value}; false when a tune.vars limit refused it (the variable is then unset). */
    public boolean set(String name, Sample value) {
        VarLimits l = limits;
        if (l.none()) {
            values.put(name, value.copy());
            return true;
        }
        Sample old = values.get(name);
        if (old == null && !account(l, OVERHEAD)) {
            return false;
        }
        if (old != null) {
            account(l, -contents(old));
        }
        if (!account(l, contents(value))) {
            // (HAProxy 2.6 keeps a variable whose contents did not fit, with a meaningless value: Fulcrum drops it)
            values.remove(name);
            account(l, -OVERHEAD);
            return false;
        }
        values.put(name, value.copy());
        return true;
    }

    public void unset(String name) {
        Sample old = values.remove(name);
        VarLimits l = limits;
        if (old != null && !l.none()) {
            account(l, -OVERHEAD - contents(old));
        }
    }

    public void clear() {
        values.clear();
    }

    /**
     * The scope ends (its transaction or session): what its variables took is given back to the scopes that include
     * it. A scope ending with its parent (req within its txn) needs no release of its own.
     */
    public void release() {
        if (size != 0 && parent != null) {
            parent.add(-size);
            GLOBAL_SIZE.addAndGet(-size);
            size = 0;
        }
    }

    private static int contents(Sample s) {
        return s.type() == SampleType.STR || s.type() == SampleType.BIN ? s.length() : 0;
    }

    /** Adds {@code n} bytes to this scope and those including it, unless one of them would go over its limit. */
    private boolean account(VarLimits l, long n) {
        if (n > 0) {
            for (Vars v = this; v != null; v = v.parent) {
                long max = l.of(v.scope);
                if (max != 0 && v.size() + n > max) {
                    return false;
                }
            }
            if (l.global != 0 && GLOBAL_SIZE.get() + n > l.global) {
                return false;
            }
        }
        add(n);
        GLOBAL_SIZE.addAndGet(n);
        return true;
    }

    private void add(long n) {
        for (Vars v = this; v != null; v = v.parent) {
            if (v == PROC) {
                PROC_SIZE.addAndGet(n);
            } else {
                v.size += n;
            }
        }
    }

    private long size() {
        return this == PROC ? PROC_SIZE.get() : size;
    }
}
