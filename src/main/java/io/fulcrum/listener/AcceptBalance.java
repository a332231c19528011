package io.fulcrum.listener;

import io.netty.channel.Channel;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Which of a listener's loops an accepted connection lives on, as HAProxy's multi-queue accept chooses a thread.
 * The listener counts its live connections on each loop (HAProxy's {@code thr_conn}), from the moment a loop is
 * chosen (so a burst of accepts sees the connections already on their way) to the close. Two indexes visit the
 * loops, one forwards, one backwards; the connection goes to the one of the two loops with fewer connections, the
 * first on a tie, and the index of the one not chosen (on a tie, the first) moves on: round robin for short
 * connections, fewest connections for long ones, and no loop missed. Why the listener's own connections and not
 * all of a loop's sockets: a loop's server connections come and go with its pool and, counted, pushed a burst of
 * clients onto the other loop.
 */
final class AcceptBalance {
    private final AtomicIntegerArray connections;
    /** The two loops compared next, distinct; touched by the accepting loop only. */
    private int first;
    private int second = 1;

    /** For {@code loops} loops, at least two. */
    AcceptBalance(int loops) {
        connections = new AtomicIntegerArray(loops);
    }

    /** The index of the loop that takes {@code child}, counted there until it closes. Called on the accepting loop. */
    int chooseFor(Channel child) {
        int q1 = connections.get(first);
        int q2 = connections.get(second);
        int chosen;
        if (q1 < q2) {
            chosen = first;
            second = before(second);
        } else {
            chosen = q1 > q2 ? second : first;
            first = (first + 1) % connections.length();
            if (first == second) {
                second = before(second);
            }
        }
        count(chosen, child);
        return chosen;
    }

    /**
     * The index of the loop that takes {@code child} accepted on loop {@code local} (one socket per loop): that
     * loop, unless it serves clearly more of this listener's connections than the least busy one, which takes it
     * instead (the kernel's spreading over the sockets is uneven with few connections).
     */
    int chooseFor(Channel child, int local) {
        int least = local;
        for (int i = 0; i < connections.length(); i++) {
            if (connections.get(i) < connections.get(least)) {
                least = i;
            }
        }
        int chosen = connections.get(local) <= connections.get(least) + SLACK ? local : least;
        count(chosen, child);
        return chosen;
    }

    /** How many more connections than the least busy loop a socket's own loop may serve and still keep one. */
    private static final int SLACK = 4;

    /** The connections of the listener on loop {@code i}. */
    int connections(int i) {
        return connections.get(i);
    }

    private void count(int loop, Channel child) {
        connections.incrementAndGet(loop);
        child.closeFuture().addListener(f -> connections.decrementAndGet(loop));
    }

    /** The loop index before {@code i} that is not {@link #first}. */
    private int before(int i) {
        int n = connections.length();
        int prev = (i + n - 1) % n;
        return prev == first ? (prev + n - 1) % n : prev;
    }
}
