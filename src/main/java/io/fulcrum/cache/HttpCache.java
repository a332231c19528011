package io.fulcrum.cache;

import io.fulcrum.http.RequestHead;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store of one {@code cache} section, shared by every event loop (HAProxy's shared memory): a concurrent map
 * from primary key to the entries stored under it (several when the response varies), each entry immutable. No lock
 * is taken: lookups read the map, a stored response replaces the array of its key atomically, and the space is
 * accounted in blocks of 1 kB; when a new entry does not fit, the oldest entries are evicted first, as HAProxy does.
 */
public final class HttpCache {
    /** The name of the "server" that answers from a cache, in the logs. */
    public static final String APPLET = "<CACHE>";
    private static final CacheEntry[] NONE = new CacheEntry[0];

    final CacheSection config;
    private final ConcurrentHashMap<CacheKey, CacheEntry[]> entries = new ConcurrentHashMap<>();
    /** Every entry stored, by order of storage: what is evicted first. */
    private final ConcurrentSkipListMap<Long, CacheEntry> byAge = new ConcurrentSkipListMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong usedBlocks = new AtomicLong();

    HttpCache(CacheSection config) {
        this.config = config;
    }

    public String name() {
        return config.name;
    }

    /** The wall clock in seconds, as HAProxy dates its entries. */
    static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /** A fresh entry answering {@code request} (its reference taken: the caller releases it), or null. */
    CacheEntry lookup(CacheKey key, RequestHead request, long now) {
        CacheEntry[] variants = entries.get(key);
        if (variants == null) {
            return null;
        }
        for (CacheEntry e : variants) {
            if (e.expire <= now) {
                remove(e);
                continue;
            }
            VaryKey wanted = e.vary.signature == 0 ? null : VaryKey.of(request, e.vary.signature);
            if ((wanted == null ? e.vary.signature == 0 : e.vary.serves(wanted)) && e.tryRetain()) {
                return e;
            }
        }
        return null;
    }

    /** Stores {@code e}: it replaces its variant (or, not varying, every entry of its key), evicting the oldest to make room. */
    void insert(CacheEntry e) {
        long now = now();
        List<CacheEntry> dropped = new ArrayList<>(1);
        boolean[] refused = new boolean[1];
        byAge.put(e.seq, e); // (before it can be found, so that a drop by another thread finds it here)
        entries.compute(e.key, (k, old) -> {
            List<CacheEntry> kept = new ArrayList<>();
            for (CacheEntry o : old == null ? NONE : old) {
                boolean replaced = e.vary.signature == 0 || o.vary.signature == 0 || o.vary.sameVariant(e.vary);
                (o.expire <= now || replaced ? dropped : kept).add(o);
            }
            if (e.vary.signature != 0 && kept.size() >= config.maxSecondaryEntries) {
                refused[0] = true; // max-secondary-entries: the new one is not kept, as in HAProxy
                dropped.clear();
                return old;
            }
            kept.add(e);
            return kept.toArray(NONE);
        });
        if (refused[0]) {
            byAge.remove(e.seq);
            e.drop();
            e.release();
            return;
        }
        dropped.forEach(this::drop);
        for (long used = usedBlocks.addAndGet(e.blocks); used > config.maxBlocks; used = usedBlocks.get()) {
            Map.Entry<Long, CacheEntry> oldest = byAge.firstEntry();
            if (oldest == null || oldest.getValue() == e) {
                break;
            }
            byAge.remove(oldest.getKey(), oldest.getValue()); // (always progresses, even if another thread drops it)
            remove(oldest.getValue());
        }
    }

    /** A successful unsafe request (PUT, POST, DELETE...) on a stored resource invalidates it (RFC 7234 4.4). */
    void invalidate(CacheKey key) {
        CacheEntry[] old = entries.remove(key);
        if (old != null) {
            Arrays.stream(old).forEach(this::drop);
        }
    }

    long nextSequence() {
        return sequence.incrementAndGet();
    }

    private void remove(CacheEntry e) {
        entries.computeIfPresent(e.key, (k, arr) -> {
            CacheEntry[] rest = Arrays.stream(arr).filter(x -> x != e).toArray(CacheEntry[]::new);
            return rest.length == 0 ? null : rest;
        });
        drop(e);
    }

    private void drop(CacheEntry e) {
        if (e.drop()) {
            byAge.remove(e.seq);
            usedBlocks.addAndGet(-e.blocks);
            e.release();
        }
    }


    /** What {@code show cache} prints of this cache: its line, then one per fresh entry, by hash. */
    void show(StringBuilder out) {
        long now = now();
        List<CacheEntry> all = new ArrayList<>();
        entries.values().forEach(arr -> all.addAll(Arrays.asList(arr)));
        all.sort(Comparator.comparingLong((CacheEntry e) -> e.key.first32()));
        long busy = all.stream().filter(e -> e.readers() > 0).mapToLong(e -> e.blocks).sum();
        out.append(String.format("%s: %s (shctx:%s, available blocks:%d)%n", pointer(this), config.name, pointer(config),
                config.maxBlocks - busy));
        for (CacheEntry e : all) {
            if (e.expire > now) {
                out.append(String.format("%s hash:%d vary:0x%s size:%d (%d blocks), refcount:%d, expire:%d%n", pointer(e),
                        e.key.first32(), e.vary.hex(), e.size, e.blocks, e.readers(), e.expire - now));
            }
        }
    }

    /** An object's identity as HAProxy prints its pointers ("0x..."). */
    private static String pointer(Object o) {
        return "0x" + Integer.toHexString(System.identityHashCode(o));
    }
}
