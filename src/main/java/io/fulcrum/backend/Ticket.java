package io.fulcrum.backend;

import io.fulcrum.runtime.VarHandles;
import io.fulcrum.server.Server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Comparator;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A stream's claim on a server's connection slot: held once assigned, until the stream ends or moves to
 * another server. While the stream waits in a queue, the ticket is what waits: the event loop that frees a
 * slot takes the ticket out of the queue and posts the grant to the waiting stream's own loop, so the
 * stream is only ever touched by its loop.
 */
public final class Ticket {
    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int GRANTED = 2;
    private static final int CANCELLED = 3;
    private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), Ticket.class, "state", int.class);

    private final Executor loop;
    private final Consumer<Server> granted;
    /** A field, not an AtomicInteger: one object less per transaction. */
    private volatile int state;
    /** The server whose slot it holds (or whose queue it waits in); null in a backend's queue. */
    private volatile Member member;
    private PendingQueue queue;
    private boolean inBackendQueue;
    private boolean waited;
    /** Arrival order among all the queues of the backend: the oldest waiter is served first. */
    long seq;
    /** Lower classes are served first (set-priority-class). */
    private int priorityClass;
    /** Shifts the arrival date within a class (set-priority-offset), in ms. */
    private long priorityOffset;
    /** When it was queued plus its offset, in ms: the order within a class. */
    private long due;
    /** The order of the queues: by class, then by due date, then by arrival (FIFO). */
    static final Comparator<Ticket> ORDER = Comparator.<Ticket>comparingInt(t -> t.priorityClass).thenComparingLong(t -> t.due)
            .thenComparingLong(t -> t.seq);
    long queueMark;
    long queuePosition;
    private long serverPosition;
    private long backendPosition;

    /**
     * @param loop    the stream's event loop
     * @param granted runs on {@code loop} when a slot came: with the server, or null when the server it waited
     *                for went down and the stream must choose again
     */
    public Ticket(Executor loop, Consumer<Server> granted) {
        this.loop = loop;
        this.granted = granted;
    }

    /** The server it holds a slot of, or null. */
    public Server server() {
        Member m = member;
        return m != null && state == GRANTED ? m.server : null;
    }

    /** It waits in a queue. */
    public boolean queued() {
        return state == QUEUED;
    }

    /** Streams served before this one while it waited in its server's queue (%sq). */
    public long serverQueuePosition() {
        return serverPosition;
    }

    /** Streams served before this one while it waited in the backend's queue (%bq). */
    public long backendQueuePosition() {
        return backendPosition;
    }

    /** Holds a slot of {@code m} taken right away. */
    void hold(Member m) {
        member = m;
        state = GRANTED;
        waited = false;
    }

    /** Its slot came from a queue, not straight from the algorithm's choice. */
    public boolean waited() {
        return waited;
    }

    /** The stream's priority ({@link QueuePriority}), for the queues it may join. */
    public void priority(long packed) {
        priorityClass = (int) QueuePriority.get(packed, false);
        priorityOffset = QueuePriority.get(packed, true);
    }

    void enqueue(PendingQueue q, Member m, long order) {
        waited = true;
        member = m;
        queue = q;
        inBackendQueue = m == null;
        seq = order;
        due = System.currentTimeMillis() + priorityOffset;
        state = QUEUED;
        q.add(this);
    }

    /** It waited in the backend's queue (not a server's). */
    boolean fromBackendQueue() {
        return inBackendQueue;
    }

    /** Called by a loop that took this ticket out of its queue with a slot of {@code m}: false if it gave up. */
    boolean grant(Member m) {
        if (!STATE.compareAndSet(this, QUEUED, GRANTED)) {
            return false;
        }
        member = m;
        notePosition();
        loop.execute(() -> granted.accept(m.server));
        return true;
    }

    /** Called when the server it waits for went down: the stream chooses again. */
    boolean redistribute() {
        if (!STATE.compareAndSet(this, QUEUED, IDLE)) {
            return false;
        }
        member = null;
        loop.execute(() -> granted.accept(null));
        return true;
    }

    /** Stops waiting (timeout queue, client gone); false when a grant is already on its way. */
    public boolean cancel() {
        if (!STATE.compareAndSet(this, QUEUED, CANCELLED)) {
            return false;
        }
        queue.remove(this);
        notePosition();
        member = null;
        state = IDLE;
        return true;
    }

    /** The position it left its queue at is the one %sq or %bq logs. */
    private void notePosition() {
        if (inBackendQueue) {
            backendPosition = queuePosition;
        } else {
            serverPosition = queuePosition;
        }
    }

    /** Gives the slot back (the stream ended or chooses another server); wakes the next waiter. Idempotent. */
    public void release() {
        if (STATE.compareAndSet(this, GRANTED, IDLE)) {
            Member m = member;
            member = null;
            m.backend.released(m);
        } else {
            cancel();
        }
    }
}
