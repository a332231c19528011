package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * HAProxy's server map (lb_map.c): one slot per unit of weight, the weights divided by their gcd, laid out
 * by recalc_server_map() so that the same configuration gives the same map. {@code balance static-rr} walks
 * it in turn; {@code hash-type map-based} indexes it with {@code hash % total weight}.
 */
final class WeightMap implements Balancer {
    private volatile Member[] map = new Member[0];
    private final AtomicInteger index = new AtomicInteger();

    @Override
    public void plan(Farm farm) {
        map = layout(farm);
    }

    /** recalc_server_map(): each slot goes to the server whose score, raised by its weight, is highest. */
    static Member[] layout(Farm farm) {
        int n = farm.members.length;
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            w[i] = farm.members[i].server.weight();
        }
        int gcd = Balancer.gcd(w);
        if (gcd == 0) {
            return new Member[0];
        }
        int total = 0;
        for (int i = 0; i < n; i++) {
            w[i] /= gcd;
            total += w[i];
        }
        Member[] out = new Member[total];
        long[] score = new long[n];
        for (int o = 0; o < total; o++) {
            int best = -1;
            long max = 0;
            for (int i = 0; i < n; i++) {
                if (total == 1) {
                    best = i;
                    break;
                }
                score[i] += w[i];
                long v = (score[i] + total) / total;
                if (best < 0 || v > max) {
                    max = v;
                    best = i;
                }
            }
            out[o] = farm.members[best];
            score[best] -= total;
        }
        return out;
    }

    /** map_get_server_rr(): the next slot whose server is not full, preferably not {@code avoid}. */
    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        Member[] m = map;
        int n = m.length;
        if (n == 0) {
            return null;
        }
        return Balancer.firstFree(m, Math.floorMod(index.getAndIncrement(), n), avoid);
    }

    /** map_get_server_hash(): the server of slot {@code hash % slots}, full or not; null when none. */
    Member byHash(long hash) {
        Member[] m = map;
        return m.length == 0 ? null : m[(int) (hash % m.length)];
    }
}
