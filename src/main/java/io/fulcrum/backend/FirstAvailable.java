package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.Arrays;
import java.util.Comparator;

/**
 * {@code balance first}: the server with the lowest id that has a free slot, whatever the weights; the
 * next ones only take what the first ones cannot.
 */
final class FirstAvailable implements Balancer {
    private volatile Member[] byId = new Member[0];

    @Override
    public void plan(Farm farm) {
        Member[] sorted = farm.members.clone();
        Arrays.sort(sorted, Comparator.comparingInt(m -> m.server.numericId()));
        byId = sorted;
    }

    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        return Balancer.firstFree(byId, 0, avoid);
    }
}
