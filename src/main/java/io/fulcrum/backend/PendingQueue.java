package io.fulcrum.backend;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams waiting for a connection slot of a server, or of any server of a backend, shared by the event
 * loops: lock-free, ordered by priority class, then arrival date shifted by the priority offset, then arrival
 * (FIFO for equal priorities), as HAProxy's queues. Its length is kept apart (a concurrent map's size() walks it).
 */
final class PendingQueue {
    private final ConcurrentSkipListMap<Ticket, Boolean> waiting = new ConcurrentSkipListMap<>(Ticket.ORDER);
    private final AtomicInteger size = new AtomicInteger();
    /** The longest it has been (qmax). */
    private final AtomicInteger peak = new AtomicInteger();
    /**
     * Streams that left it for a slot so far: a waiter's position for %sq/%bq is the growth while it waited, plus
     * one (HAProxy's pendconn_add() counts from -1 "to make sure that being at the first position in the queue
     * reports 1", also when it leaves the queue on its timeout).
     */
    private final AtomicLong served = new AtomicLong();

    int size() {
        return size.get();
    }

    /** The longest it has been since started or cleared (qmax). */
    int peak() {
        return peak.get();
    }

    /** {@code clear counters}: the peak comes down to the length now. */
    void resetPeak() {
        peak.set(size.get());
    }

    /** Adds {@code t}, noting where the queue stood. */
    void add(Ticket t) {
        t.queueMark = served.get();
        int n = size.incrementAndGet();
        if (n > peak.get()) {
            peak.accumulateAndGet(n, Math::max);
        }
        waiting.put(t, Boolean.TRUE);
    }

    /** The ticket to serve first, or null. */
    Ticket peek() {
        Map.Entry<Ticket, Boolean> e = waiting.firstEntry();
        return e == null ? null : e.getKey();
    }

    /** Takes the ticket to serve first, or null; its position (the streams served while it waited) is recorded. */
    Ticket poll() {
        Map.Entry<Ticket, Boolean> e = waiting.pollFirstEntry();
        Ticket t = e == null ? null : e.getKey();
        if (t != null) {
            size.decrementAndGet();
            t.queuePosition = served.getAndIncrement() - t.queueMark + 1;
        }
        return t;
    }

    /** Removes a ticket that gave up waiting, noting its position; false when a slot took it first. */
    boolean remove(Ticket t) {
        if (waiting.remove(t) != null) {
            size.decrementAndGet();
            t.queuePosition = served.get() - t.queueMark + 1;
            return true;
        }
        return false;
    }
}
