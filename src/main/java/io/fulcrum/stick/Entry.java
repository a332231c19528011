package io.fulcrum.stick;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One key of a stick table and its data. Shared by every event loop: the data are atomic longs (counters, rate
 * periods), updated without locks; {@code refs} counts the trackers holding it (HAProxy's {@code use=}), which keep it
 * from expiring or being evicted.
 */
public final class Entry {
    private static final AtomicIntegerFieldUpdater<Entry> PENDING = AtomicIntegerFieldUpdater.newUpdater(Entry.class, "pending");

    final Object key;
    final AtomicLongArray data;
    final AtomicInteger refs = new AtomicInteger();
    /** When it expires (StickTable.now() ms), or 0 in a table without expiry. */
    volatile long expire;
    /** The server's key ({@code server_key}: its name, or its address with {@code srvkey addr}), or null. */
    volatile String serverKey;
    /** 1 while a change waits to be sent to the peers: a changed entry is queued once however often it changes. */
    private volatile int pending;

    Entry(Object key, int width) {
        this.key = key;
        this.data = new AtomicLongArray(width);
    }

    public Object key() {
        return key;
    }

    public String serverKey() {
        return serverKey;
    }

    public void serverKey(String k) {
        serverKey = k;
    }

    /** Marks a change waiting for the peers; false when one already waits. */
    public boolean markPending() {
        return pending == 0 && PENDING.compareAndSet(this, 0, 1);
    }

    /** The waiting change is being sent: a later one queues the entry again. */
    public void clearPending() {
        pending = 0;
    }
}
