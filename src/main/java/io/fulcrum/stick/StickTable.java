package io.fulcrum.stick;

import io.fulcrum.sample.Sample;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stick table: entries by key in a concurrent map, read and updated by every event loop without locks.
 * <p>
 * Expiry: an entry no tracker holds expires {@code expire} ms after it was last touched; an expired entry is gone
 * for lookups at once, and removed by a sweep (StickTables) or when its key comes back. Size: creating an entry in
 * a full table first evicts a batch of the unreferenced entries nearest to expiry (the least recently touched):
 * one scan frees room for the next size/32 creations, so the scan's cost is spread; with {@code nopurge}, or when
 * every entry is held, the new key is not stored (as HAProxy).
 */
public final class StickTable {
    private static final long START = System.nanoTime();
    /**
     * Where the clock starts: far from 0, so that a fresh rate (its period starting at 0) begins its first period at
     * its first event, as HAProxy's do.
     */
    private static final long EPOCH = 1L << 32;

    private final String name;
    private final KeyType type;
    private final int keyLen;
    private final int size;
    private final long expire;
    private final boolean nopurge;
    private final boolean serverKeyAddr;
    final Layout layout;
    private final ConcurrentHashMap<Object, Entry> entries = new ConcurrentHashMap<>();
    /** One eviction scan at a time; a loop that finds one running does not wait (the table overshoots a little). */
    private final AtomicBoolean evicting = new AtomicBoolean();
    /** The peers section sharing the table ({@code peers <name>}, or the section of a {@code table} line), or null. */
    private String peers;
    /** The table's name in the peers protocol. */
    private String wireName;
    /** Told of each local change when the table is shared with peers; null otherwise. */
    private volatile Replicator replicator;

    StickTable(String name, KeyType type, int keyLen, int size, long expire, boolean nopurge, boolean serverKeyAddr, Layout layout) {
        this.name = name;
        this.type = type;
        this.keyLen = keyLen;
        this.size = size;
        this.expire = expire;
        this.nopurge = nopurge;
        this.serverKeyAddr = serverKeyAddr;
        this.layout = layout;
    }

    /** Milliseconds of a monotonic clock: expiry dates and rate periods. */
    public static long now() {
        return (System.nanoTime() - START) / 1_000_000 + EPOCH;
    }

    public String name() {
        return name;
    }

    public KeyType type() {
        return type;
    }

    public int size() {
        return size;
    }

    public int keyLen() {
        return keyLen;
    }

    /** Entries' lifetime in ms after their last update, 0 when they do not expire. */
    public long expire() {
        return expire;
    }

    void share(String peers, String wireName) {
        this.peers = peers;
        this.wireName = wireName;
    }

    /** The peers section sharing this table, or null. */
    public String peers() {
        return peers;
    }

    /** The table's name in the peers protocol: its own, or "/t" for table t of a peers section. */
    public String wireName() {
        return wireName;
    }

    /** Who is told of the local changes of entries (the peers of the table). */
    public void replicator(Replicator r) {
        this.replicator = r;
    }

    private void changed(Entry e) {
        Replicator r = replicator;
        if (r != null) {
            r.changed(e);
        }
    }

    /** With {@code srvkey addr}: persistence keys servers by address. */
    boolean serverKeyAddr() {
        return serverKeyAddr;
    }

    /** Adds server_id and server_key to the stored data (a table of stick rules), before any entry exists. */
    void storeServers() {
        if (!layout.has(DataType.SERVER_ID) || !layout.has(DataType.SERVER_KEY)) {
            layout.add(DataType.SERVER_ID, 1, 0);
            layout.add(DataType.SERVER_KEY, 1, 0);
            layout.done();
        }
    }

    /** Entries stored, expired ones not swept yet included (as HAProxy's {@code used}). */
    public int used() {
        return entries.size();
    }

    /** Whether the table stores {@code t} itself (not through the array of a legacy type). */
    public boolean stores(DataType t) {
        return layout.has(t);
    }

    /** Whether element {@code idx} of {@code t} is stored, directly or in the array that holds a legacy type. */
    boolean holds(DataType t, int idx) {
        return layout.offset(t, idx) >= 0;
    }

    /** Lowers a current-count value by one unless it is 0 (conn_cur when a tracker ends). */
    void decrement(Entry e, DataType t) {
        int off = layout.offset(t, 0);
        if (off >= 0) {
            e.data.getAndUpdate(off, v -> (v & 0xffffffffL) > 0 ? v - 1 : v);
        }
    }

    /** The key of a sample already cast to the table's sample type. */
    public Object key(Sample s) {
        return type.key(s, keyLen);
    }

    /** The key written on the CLI, or null when invalid. */
    Object parseKey(String text) {
        return type.parse(text, keyLen);
    }

    String format(Object key) {
        return type.format(key);
    }

    /** The live entry of {@code key}, or null. */
    public Entry lookup(Object key) {
        Entry e = entries.get(key);
        return e == null || expired(e, now()) ? null : e;
    }

    /** The live entry of {@code key}, created if absent; null when the table is full and nothing can be evicted. */
    public Entry getOrCreate(Object key) {
        long now = now();
        Entry e = entries.get(key);
        if (e != null && !expired(e, now)) {
            return e;
        }
        if (e != null) {
            entries.remove(key, e); // expired: its key starts afresh
        }
        if (entries.size() >= size && !evict()) {
            return null;
        }
        Entry fresh = new Entry(key, layout.width());
        touch(fresh, now);
        e = entries.putIfAbsent(key, fresh);
        return e != null ? e : fresh;
    }

    /** Takes a tracker's reference: the entry does not expire while held. */
    public void hold(Entry e) {
        e.refs.incrementAndGet();
    }

    /** Gives a reference back; the entry's expiry starts again from now. */
    public void release(Entry e) {
        e.refs.decrementAndGet();
        touch(e, now());
        changed(e);
    }

    /** Pushes the entry's expiry to {@code expire} from now (HAProxy touches an entry at each update). */
    void touch(Entry e, long now) {
        if (expire > 0) {
            e.expire = now + expire;
        }
    }

    boolean expired(Entry e, long now) {
        return expire > 0 && e.refs.get() == 0 && e.expire - now <= 0;
    }

    /** Removes the expired entries; the sweep of StickTables. */
    void sweep() {
        long now = now();
        entries.values().removeIf(e -> expired(e, now));
    }

    /** Removes {@code e} unless a tracker holds it; false when held. */
    boolean remove(Entry e) {
        return e.refs.get() == 0 && entries.remove(e.key, e);
    }

    /** Every entry, expired ones not swept yet left out. */
    public List<Entry> snapshot() {
        long now = now();
        List<Entry> l = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (!expired(e, now)) {
                l.add(e);
            }
        }
        return l;
    }

    /** Frees room: removes the oldest unreferenced entries, size/32 of them at most; false when none could go. */
    private boolean evict() {
        if (nopurge) {
            return false;
        }
        if (!evicting.compareAndSet(false, true)) {
            return entries.size() < size + size / 32 + 1; // another loop is freeing room: let this one in
        }
        try {
            int batch = Math.max(1, size / 32);
            PriorityQueue<Entry> newest = new PriorityQueue<>(batch + 1, Comparator.comparingLong((Entry e) -> e.expire).reversed());
            for (Entry e : entries.values()) {
                if (e.refs.get() == 0) {
                    newest.add(e);
                    if (newest.size() > batch) {
                        newest.poll(); // keeps the batch oldest
                    }
                }
            }
            int freed = 0;
            for (Entry e : newest) {
                if (remove(e)) {
                    freed++;
                }
            }
            return freed > 0;
        } finally {
            evicting.set(false);
        }
    }

    // --- data -----------------------------------------------------------------------------------------

    /** Element {@code idx} of {@code t} in {@code e}; -1 when the table does not store it. */
    public long get(Entry e, DataType t, int idx) {
        int off = layout.offset(t, idx);
        if (off < 0) {
            return -1;
        }
        return switch (t.kind()) {
            case RATE -> Rate.read(e.data, off, layout.period(t), now());
            case UINT -> e.data.get(off) & 0xffffffffL; // HAProxy's counters are unsigned ints that wrap
            case SINT -> (int) e.data.get(off);
            default -> e.data.get(off);
        };
    }

    /** Adds {@code n} to element {@code idx} of {@code t} (a counter, or a rate's current period); false when not stored. */
    public boolean add(Entry e, DataType t, int idx, long n) {
        int off = layout.offset(t, idx);
        if (off < 0) {
            return false;
        }
        long now = now();
        if (t.kind() == DataType.Kind.RATE) {
            Rate.add(e.data, off, layout.period(t), now, n);
        } else {
            e.data.getAndAdd(off, n);
        }
        touch(e, now);
        changed(e);
        return true;
    }

    /** Sets element {@code idx} of {@code t}, cut to its kind's width as HAProxy's storage does; false when not stored. */
    public boolean set(Entry e, DataType t, int idx, long v) {
        int off = layout.offset(t, idx);
        if (off < 0) {
            return false;
        }
        long now = now();
        long value = switch (t.kind()) {
            case SINT -> (int) v;
            case UINT, RATE -> v & 0xffffffffL;
            default -> v;
        };
        if (t.kind() == DataType.Kind.RATE) {
            Rate.set(e.data, off, layout.period(t), now, value);
        } else {
            e.data.set(off, value);
        }
        touch(e, now);
        changed(e);
        return true;
    }

    // --- what a peer teaches (no replication back) ---------------------------------------------------

    /** The data types stored, in the protocol's order. */
    public List<DataType> storedTypes() {
        return layout.stored();
    }

    /** The elements of {@code t} (1 for the scalar types). */
    public int elements(DataType t) {
        return layout.count(t);
    }

    /** The period of rate {@code t}, in ms. */
    public long period(DataType t) {
        return layout.period(t);
    }

    /**
     * Field {@code field} of element {@code idx} of the stored type {@code t} as kept: the value of a scalar (field 0);
     * of a rate, 0 the current period's count, 1 the previous one's, 2 the current period's start (ms of {@link #now()}).
     */
    public long raw(Entry e, DataType t, int idx, int field) {
        return e.data.get(layout.offset(t, idx) + field);
    }

    /** The ms left before {@code e} expires (0 in a table without expiry). */
    public long expiresIn(Entry e) {
        return expire > 0 ? Math.max(0, e.expire - now()) : 0;
    }

    /** Sets what {@link #raw} reads, without telling the peers (the value comes from one). */
    public void learnRaw(Entry e, DataType t, int idx, int field, long v) {
        e.data.set(layout.offset(t, idx) + field, v);
    }

    /** The entry of {@code key} created if absent, expiring {@code expireMs} from now; null when the table is full. */
    public Entry learn(Object key, long expireMs) {
        Entry e = getOrCreate(key);
        if (e != null && expire > 0) {
            e.expire = now() + expireMs;
        }
        return e;
    }
}
