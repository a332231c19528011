package io.fulcrum.log;

import java.util.ArrayList;
import java.util.List;

/**
 * A ring buffer of log messages ({@code ring} sections, the rings behind {@code tcp@} targets, and HAProxy's
 * {@code buf0}): at most {@code size} bytes, the oldest messages making room for new ones. Written by the log
 * sender thread only (never by an event loop), read by {@code show events} and by the forwarders of the ring's
 * servers. A connected forwarder pins what it has not sent yet: when that fills the ring, new messages are dropped
 * and counted, as HAProxy's ring does when a server does not keep up; the writer then announces the count in the ring
 * once there is room again ("N events dropped", {@link #announced}), as HAProxy's sink does.
 */
final class Ring {
    /** What each message costs besides its bytes, as in HAProxy's ring (a length prefix and a reader count). */
    static final int OVERHEAD = 2;

    private final String name;
    private final String description;
    private final long capacity;
    /** The messages kept, oldest at {@code head}, in a circular array that grows as needed. */
    private byte[][] slots = new byte[64][];
    private int head;
    private int count;
    /** Sequence number of the oldest message kept. */
    private long first;
    private long used;
    /** Messages dropped and not announced yet. */
    private long dropped;
    private final List<Cursor> pins = new ArrayList<>();
    /** The {@code backing-file} that keeps a copy of the messages, or null. */
    private final RingFile file;

    /** A reader's position: the sequence number of the next message it reads. */
    static final class Cursor {
        long next;
    }

    Ring(String name, String description, long capacity) {
        this(name, description, capacity, null);
    }

    Ring(String name, String description, long capacity, RingFile file) {
        this.name = name;
        this.description = description;
        this.capacity = capacity;
        this.file = file;
    }

    String name() {
        return name;
    }

    String description() {
        return description;
    }

    /** Stores {@code length} bytes of {@code data}; false (dropped and counted) when a pinned message leaves no room. */
    synchronized boolean write(byte[] data, int length) {
        long cost = length + OVERHEAD;
        while (used + cost > capacity && count > 0 && !pinned(first)) {
            used -= slots[head].length + OVERHEAD;
            if (file != null) {
                file.evicted(slots[head].length);
            }
            slots[head] = null;
            head = (head + 1) % slots.length;
            count--;
            first++;
        }
        if (used + cost > capacity) {
            dropped++;
            return false;
        }
        byte[] copy = new byte[length];
        System.arraycopy(data, 0, copy, 0, length);
        if (count == slots.length) {
            byte[][] grown = new byte[slots.length * 2][];
            for (int i = 0; i < count; i++) {
                grown[i] = slots[(head + i) % slots.length];
            }
            slots = grown;
            head = 0;
        }
        slots[(head + count) % slots.length] = copy;
        count++;
        used += cost;
        if (file != null) {
            file.append(copy, length);
        }
        notifyAll();
        return true;
    }

    private boolean pinned(long seq) {
        for (Cursor c : pins) {
            if (c.next <= seq) {
                return true;
            }
        }
        return false;
    }

    /** The sequence number the next message will have. */
    synchronized long end() {
        return first + count;
    }

    /** The messages dropped since the last announcement (the count {@code show events} gives, as HAProxy's). */
    synchronized long dropped() {
        return dropped;
    }

    /** A message announcing {@code n} dropped ones was written: they are no longer pending. */
    synchronized void announced(long n) {
        dropped -= n;
    }

    /** Counts a message dropped without trying to store it (its announcement could not be stored first). */
    synchronized void drop() {
        dropped++;
    }

    /** A reader at the oldest message ({@code fromEnd}: after the newest one). */
    synchronized Cursor cursor(boolean fromEnd) {
        Cursor c = new Cursor();
        c.next = fromEnd ? first + count : first;
        return c;
    }

    /** Keeps what {@code c} has not read until it reads it or is released. */
    synchronized void pin(Cursor c) {
        c.next = Math.max(c.next, first);
        pins.add(c);
    }

    synchronized void release(Cursor c) {
        pins.remove(c);
        notifyAll();
    }

    /**
     * Moves the messages after {@code c} (those already overwritten skipped) to {@code out}, at most {@code max};
     * waits up to {@code waitMillis} for one when there is none. Returns how many were moved.
     */
    synchronized int read(Cursor c, List<byte[]> out, int max, long waitMillis) throws InterruptedException {
        long end = first + count;
        if (c.next >= end && waitMillis > 0) {
            wait(waitMillis);
            end = first + count;
        }
        c.next = Math.max(c.next, first);
        int n = 0;
        for (; c.next < end && n < max; c.next++, n++) {
            out.add(slots[(int) ((head + c.next - first) % slots.length)]);
        }
        return n;
    }
}
