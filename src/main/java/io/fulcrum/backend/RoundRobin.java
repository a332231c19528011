package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code balance roundrobin}: weighted turns with dynamic weights. A plan lays out HAProxy's turns and publishes
 * them; picking walks them with one atomic counter, so a weight change or a server going down re-plans without
 * any lock on the pick path. Full servers are skipped.
 * <p>
 * The turns are HAProxy's weighted round robin (lb_fwrr, {@link Fwrr}) turn for turn: a plan runs it from where
 * the turns taken so far left it, so a weight change carries the servers' positions over as HAProxy does, until
 * its windows repeat; the plan is then the turns up to the repeat and the repeating windows, walked in a loop.
 * Turns too many to lay out (a total weight beyond {@link #MAX_WINDOW}) are spread by stride scheduling instead.
 */
final class RoundRobin implements Balancer {
    /** The longest window laid out turn by turn: 4096 servers of weight 1, 16 of weight 256. */
    static final int MAX_WINDOW = 1 << 16;
    /** The most turns a plan lays out while looking for its windows to repeat (they do within a few for common weights). */
    private static final int MAX_TURNS = 4 * MAX_WINDOW;

    /**
     * The turns from pick {@code base} on: {@code turns[0..loop)} once, then {@code turns[loop..]} over and over.
     * {@code start} and {@code atLoop} are the simulation before the first turn and at the loop's start (null
     * for stride turns), to find where the turns taken have left it.
     */
    private record Plan(Member[] turns, int loop, long base, boolean backups, Fwrr start, Fwrr atLoop) {
        int at(long pick) {
            long i = pick - base;
            return (int) (i < loop ? Math.max(i, 0) : loop + (i - loop) % (turns.length - loop));
        }
    }

    private volatile Plan plan = new Plan(new Member[0], 0, 0, false, null, null);
    private final AtomicLong cursor = new AtomicLong();

    @Override
    public void plan(Farm farm) {
        long base = cursor.get();
        boolean backups = !farm.isEmpty() && farm.members[0].spec().backup;
        if (farm.total > MAX_WINDOW || farm.total == 0) {
            plan = new Plan(strides(farm.members, farm.weights), 0, base, backups, null, null);
            return;
        }
        Fwrr sim = where(plan, base, backups);
        if (sim == null) {
            sim = new Fwrr(farm.members, farm.weights);
        } else {
            sim.update(farm.members, farm.weights);
        }
        plan = lay(sim, base, backups);
    }

    /** The simulation after the turns taken since {@code p} was laid out, if it ran for the same group of servers. */
    private static Fwrr where(Plan p, long now, boolean backups) {
        if (p.start == null || p.backups != backups) {
            return null;
        }
        long taken = Math.max(0, now - p.base);
        Fwrr sim = taken < p.loop ? p.start.copy() : p.atLoop.copy();
        for (long t = taken < p.loop ? taken : (taken - p.loop) % (p.turns.length - p.loop); t > 0; t--) {
            sim.next();
        }
        return sim;
    }

    /** Runs {@code sim} until the state at a window's end comes back, and lays out the turns up to there. */
    private static Plan lay(Fwrr sim, long base, boolean backups) {
        Fwrr start = sim.copy();
        List<Member> turns = new ArrayList<>();
        List<Fwrr> ends = new ArrayList<>();
        List<Integer> endsAt = new ArrayList<>();
        while (turns.size() < MAX_TURNS) {
            if (sim.atWindowEnd()) {
                for (int k = 0; k < ends.size(); k++) {
                    if (sim.sameCourse(ends.get(k))) {
                        return new Plan(turns.toArray(new Member[0]), endsAt.get(k), base, backups, start, ends.get(k));
                    }
                }
                ends.add(sim.copy());
                endsAt.add(turns.size());
            }
            turns.add(sim.next());
        }
        // No repeat within reach: the windows seen are walked in a loop (HAProxy would drift from them).
        int loop = endsAt.isEmpty() ? 0 : endsAt.get(0);
        return new Plan(turns.toArray(new Member[0]), loop, base, backups, start, ends.isEmpty() ? start : ends.get(0));
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
        Plan p = plan;
        if (p.turns.length == 0) {
            return null;
        }
        // A full server's turns are passed; after a plan's worth of full ones, every server is full.
        return Balancer.firstFree(p.turns, p.at(cursor.getAndIncrement()), avoid);
    }
}
