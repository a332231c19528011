package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code balance roundrobin}: weighted turns with dynamic weights. A plan lays out one cycle of turns by
 * stride scheduling (each server's turns evenly spread: weights 5,1,1 give a a a b c a a, not a a a a a b c)
 * and publishes it; picking walks it with one atomic counter, so a weight change or a server going down
 * re-plans without any lock on the pick path. Full servers are skipped.
 */
final class RoundRobin implements Balancer {
    private volatile Member[] cycle = new Member[0];
    private final AtomicLong cursor = new AtomicLong();

    @Override
    public void plan(Farm farm) {
        cycle = cycle(farm.members, farm.weights);
    }

    /** One cycle of turns: the weights divided by their gcd, each server's turns at even strides. */
    static Member[] cycle(Member[] members, int[] weights) {
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
