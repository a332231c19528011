package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code balance random(draws)}: random keys on the consistent-hash ring, keeping the least loaded of the
 * servers drawn for its weight (power of two choices by default). A full winner sends the stream to the
 * backend's queue, as in HAProxy.
 */
final class RandomDraws implements Balancer {
    private final HashRing ring;
    private final int draws;
    private volatile Farm farm = Farm.EMPTY;

    RandomDraws(int balanceFactor, int draws) {
        this.ring = new HashRing(balanceFactor);
        this.draws = draws;
    }

    @Override
    public void plan(Farm farm) {
        this.farm = farm;
        ring.plan(farm);
    }

    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        Farm f = farm;
        Member current = null;
        for (int d = 0; d < draws; d++) {
            Member prev = current;
            current = ring.byHash(ThreadLocalRandom.current().nextInt() & 0xffffffffL, avoid);
            if (current == null) {
                break;
            }
            if (prev != null && prev != current
                    && (long) current.served() * weight(f, prev) > (long) prev.served() * weight(f, current)) {
                current = prev;
            }
        }
        return current == null || current.full() ? null : current;
    }

    private static int weight(Farm f, Member m) {
        int i = f.indexOf(m);
        return i < 0 ? 0 : f.weights[i];
    }
}
