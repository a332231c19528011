package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code balance roundrobin}: weighted turns with dynamic weights. A plan lays out one window of turns and
 * publishes it; picking walks it with one atomic counter, so a weight change or a server going down re-plans
 * without any lock on the pick path. Full servers are skipped.
 * <p>
 * The window is the one HAProxy's weighted round robin (lb_fwrr) gives from a fresh start, turn for turn: its
 * length is the sum of the effective weights, and for the weights a configuration gives HAProxy repeats it (it
 * drifts by a turn now and then for some). A window too long to lay out is spread by stride scheduling instead.
 */
final class RoundRobin implements Balancer {
    /** The longest window laid out turn by turn: 4096 servers of weight 1, 16 of weight 256. */
    static final int MAX_WINDOW = 1 << 16;

    private volatile Member[] cycle = new Member[0];
    private final AtomicLong cursor = new AtomicLong();

    @Override
    public void plan(Farm farm) {
        cycle = cycle(farm.members, farm.weights);
    }

    /** One window of turns over {@code members} with their effective ({@link Member#SCALE}d) weights. */
    static Member[] cycle(Member[] members, int[] weights) {
        long total = 0;
        for (int w : weights) {
            total += w;
        }
        return total <= MAX_WINDOW ? HaproxyWindow.turns(members, weights, (int) total) : strides(members, weights);
    }

    /** HAProxy's lb_fwrr with every server up and free, run for {@code total} turns from its initial state. */
    private static final class HaproxyWindow {
        /** HAProxy's SRV_EWGHT_MAX, SRV_UWGHT_RANGE and BE_WEIGHT_SCALE. */
        private static final long EWGHT_MAX = 4096;
        private static final long UWGHT_RANGE = 256;
        private static final long WEIGHT_SCALE = Member.SCALE;

        /** A server's place in a tree: its key, then the order of insertion (ebtree keeps duplicates in that order). */
        private record Node(long key, long seq, int server) {
        }

        private final int[] weights;
        private final long[] npos;
        private final long[] rweight;
        private final long total;
        private long currPos;
        private long seq;
        private final PriorityQueue<Node> curr = tree();
        private PriorityQueue<Node> init = tree();
        private PriorityQueue<Node> next = tree();

        private HaproxyWindow(int[] weights, long total) {
            this.weights = weights;
            this.npos = new long[weights.length];
            this.rweight = new long[weights.length];
            this.total = total;
            this.currPos = total;
            for (int i = 0; i < weights.length; i++) {
                if (weights[i] > 0) {
                    queueByWeight(init, i);
                }
            }
        }

        static Member[] turns(Member[] members, int[] weights, int total) {
            HaproxyWindow w = new HaproxyWindow(weights, total);
            Member[] out = new Member[total];
            for (int t = 0; t < total; t++) {
                out[t] = members[w.next()];
            }
            return out;
        }

        private static PriorityQueue<Node> tree() {
            return new PriorityQueue<>(Comparator.comparingLong(Node::key).thenComparingLong(Node::seq));
        }

        private void queueByWeight(PriorityQueue<Node> tree, int s) {
            tree.add(new Node(EWGHT_MAX - weights[s], seq++, s));
        }

        /** fwrr_get_next_server: the weights never change within a window, so curr and next weights are both the total. */
        private int next() {
            int s = fromGroup();
            if (s < 0) { // the current tree is used up: the next one becomes the initial one
                PriorityQueue<Node> swap = init;
                init = next;
                next = swap;
                currPos = total;
                s = fromGroup();
            }
            if (npos[s] == 0) {
                npos[s] = currPos;
            }
            npos[s] += total / weights[s];
            rweight[s] += total % weights[s];
            if (rweight[s] >= weights[s]) {
                rweight[s] -= weights[s];
                npos[s]++;
            }
            currPos++;
            if (npos[s] >= 2 * total) {
                npos[s] -= total;
                queueByWeight(next, s);
            } else {
                curr.add(new Node(UWGHT_RANGE * npos[s] + (EWGHT_MAX + rweight[s] - weights[s]) / WEIGHT_SCALE, seq++, s));
            }
            return s;
        }

        /** The first server of the current tree if its turn has come, else the first not yet placed, else the first. */
        private int fromGroup() {
            Node c = curr.peek();
            if (c != null && npos[c.server()] <= currPos) {
                return curr.poll().server();
            }
            Node i = init.peek();
            if (i != null) {
                init.poll();
                npos[i.server()] = 0;
                rweight[i.server()] = 0;
                return i.server();
            }
            return c == null ? -1 : curr.poll().server();
        }
    }

    /** One cycle of turns: the weights divided by their gcd, each server's turns at even strides. */
    static Member[] strides(Member[] members, int[] weights) {
        int gcd = Balancer.gcd(weights);
        if (gcd == 0) {
            return new Member[0];
        }
        int total = 0;
        for (int w : weights) {
            total += w / gcd;
        }
        // pass[i] = next turn's position in [0, 1) of the cycle: (k + 1/2) / weight, kept exact as fractions.
        record Turn(long num, long den, int index, int k) {
        }
        PriorityQueue<Turn> next = new PriorityQueue<>((a, b) -> {
            int c = Long.compare(a.num * b.den, b.num * a.den);
            return c != 0 ? c : Integer.compare(a.index, b.index);
        });
        for (int i = 0; i < members.length; i++) {
            if (weights[i] > 0) {
                next.add(new Turn(1, 2L * (weights[i] / gcd), i, 0));
            }
        }
        Member[] out = new Member[total];
        for (int t = 0; t < total; t++) {
            Turn turn = next.poll();
            out[t] = members[turn.index];
            int k = turn.k + 1;
            next.add(new Turn(2L * k + 1, 2L * (weights[turn.index] / gcd), turn.index, k));
        }
        return out;
    }

    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        Member[] c = cycle;
        int n = c.length;
        if (n == 0) {
            return null;
        }
        // A full server's turns are passed; after a cycle's worth of full ones, every server is full.
        return Balancer.firstFree(c, (int) (cursor.getAndIncrement() % n), avoid);
    }
}
