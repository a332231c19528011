package io.fulcrum.stick;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One key of a stick table and its data. Shared by every event loop: the data are atomic longs (counters, rate
 * periods), updated without locks; {@code refs} counts the trackers holding it (HAProxy's {@code use=}), which keep it
 * from expiring or being evicted.
 */
public final class Entry {
    final Object key;
    final AtomicLongArray data;
    final AtomicInteger refs = new AtomicInteger();
    /** When it expires (StickTable.now() ms), or 0 in a table without expiry. */
    volatile long expire;
    /** The server's key ({@code server_key}: its name, or its address with {@code srvkey addr}), or null. */
    volatile String serverKey;

    Entry(Object key, int width) {
        this.key = key;
        this.data = new AtomicLongArray(width);
    }
}
