package io.fulcrum.backend;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The order of a queue: by priority class, then arrival shifted by the priority offset, FIFO otherwise. */
class PendingQueueTest {
    private long arrivals;

    private Ticket queued(PendingQueue q, long cls, long offset) {
        Ticket t = new Ticket(Runnable::run, s -> { });
        t.priority(QueuePriority.with(QueuePriority.with(0, false, cls), true, offset));
        t.enqueue(q, null, arrivals++);
        return t;
    }

    private static List<Ticket> drain(PendingQueue q) {
        List<Ticket> out = new ArrayList<>();
        for (Ticket t; (t = q.poll()) != null; ) {
            out.add(t);
        }
        return out;
    }

    @Test
    void equalPrioritiesAreServedInArrivalOrder() {
        PendingQueue q = new PendingQueue();
        Ticket a = queued(q, 0, 0);
        Ticket b = queued(q, 0, 0);
        Ticket c = queued(q, 0, 0);
        assertThat(q.size()).isEqualTo(3);
        assertThat(q.peek()).isSameAs(a);
        assertThat(drain(q)).containsExactly(a, b, c);
        assertThat(q.size()).isZero();
    }

    @Test
    void lowerClassesFirstThenEarlierDueDates() {
        PendingQueue q = new PendingQueue();
        Ticket plain = queued(q, 0, 0);
        Ticket late = queued(q, 0, 60_000);
        Ticket urgent = queued(q, -10, 0);
        Ticket early = queued(q, 0, -60_000);
        Ticket low = queued(q, 5, -524287);
        assertThat(q.remove(plain)).isTrue();
        assertThat(q.remove(plain)).isFalse();
        Ticket again = queued(q, 0, 0);
        assertThat(drain(q)).containsExactly(urgent, early, again, late, low);
    }

    @Test
    void aPackedPriorityKeepsBothSignedHalves() {
        long p = QueuePriority.with(0, true, -524287);
        p = QueuePriority.with(p, false, -2047);
        assertThat(QueuePriority.get(p, false)).isEqualTo(-2047);
        assertThat(QueuePriority.get(p, true)).isEqualTo(-524287);
        p = QueuePriority.with(p, true, 5);
        assertThat(QueuePriority.get(p, false)).isEqualTo(-2047);
        assertThat(QueuePriority.get(p, true)).isEqualTo(5);
        assertThat(QueuePriority.get(QueuePriority.with(p, false, 2047), false)).isEqualTo(2047);
    }
}
