package io.fulcrum.peers;

import io.fulcrum.stick.Entry;
import io.fulcrum.stick.Replicator;
import io.fulcrum.stick.StickTable;
import io.netty.channel.EventLoop;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A table shared with the peers of a section, and its local updates in order (HAProxy's update tree): each change
 * gives the entry the next update id, so that each peer session pushes what follows its own cursor and a reconnected
 * peer resumes after the last update it acknowledged.
 * <p>
 * Changes arrive from every event loop: the entry is queued once (its pending mark) and the queue is drained on the
 * section's loop, which owns the ids; nothing here takes a lock.
 */
final class SharedTable implements Replicator {
    final StickTable table;
    /** Its id in this process's messages (1, 2...). */
    final int id;
    final TableCodec codec;
    private final EventLoop loop;
    private final Runnable pushed;
    private final Queue<Entry> changes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    // Owned by the section's loop.
    private final TreeMap<Long, Entry> updates = new TreeMap<>();
    private final Map<Entry, Long> ids = new IdentityHashMap<>();
    private long localUpdate;
    /** HAProxy's table update counter: local updates and those learned from the peers. */
    private long update;

    SharedTable(StickTable table, int id, EventLoop loop, Runnable pushed) {
        this.table = table;
        this.id = id;
        this.codec = new TableCodec(table);
        this.loop = loop;
        this.pushed = pushed;
    }

    @Override
    public void changed(Entry e) {
        if (e.markPending()) {
            changes.add(e);
            if (draining.compareAndSet(false, true)) {
                loop.execute(this::drain);
            }
        }
    }

    private void drain() {
        draining.set(false);
        for (Entry e; (e = changes.poll()) != null; ) {
            e.clearPending();
            update++;
            Long old = ids.put(e, ++localUpdate);
            if (old != null) {
                updates.remove(old);
            }
            updates.put(localUpdate, e);
        }
        pushed.run();
    }

    /** The last update id given. */
    long localUpdate() {
        return localUpdate;
    }

    /** An entry was learned from a peer: it counts in {@link #update()}, not among the local updates. */
    void learned() {
        update++;
    }

    /** Every update so far, local or learned (HAProxy's {@code update} in {@code show peers}). */
    long update() {
        return update;
    }

    /** The updates after {@code cursor}, oldest first. */
    NavigableMap<Long, Entry> after(long cursor) {
        return updates.tailMap(cursor, false);
    }

    /** Whether {@code e} is still the table's entry for its key (not expired or removed since its update). */
    boolean live(Entry e) {
        return table.lookup(e.key()) == e;
    }

    /** Forgets the updates of entries that left the table; called now and then by the section's loop. */
    void purge() {
        if (updates.size() > table.used()) {
            updates.values().removeIf(e -> {
                boolean dead = !live(e);
                if (dead) {
                    ids.remove(e);
                }
                return dead;
            });
        }
    }
}
