package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code balance leastconn}: the server with the fewest streams (served and queued) for its effective weight;
 * among equals, in turn. A server with {@code maxqueue} stays a candidate until its queue is full too, as in
 * HAProxy. Picking scans the published farm; loads are read from the servers' counters.
 */
final class LeastConn implements Balancer {
    private volatile Farm farm = Farm.EMPTY;
    private final AtomicInteger turn = new AtomicInteger();

    @Override
    public void plan(Farm farm) {
        this.farm = farm;
    }

    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        Farm f = farm;
        int n = f.members.length;
        if (n == 0) {
            return null;
        }
        int start = Math.floorMod(turn.getAndIncrement(), n);
        Member best = null;
        long bestLoad = Long.MAX_VALUE;
        Member avoided = null;
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            Member m = f.members[i];
            int inflight = m.served() + m.queue.size();
            int max = m.dynamicMaxconn();
            if (max > 0 && inflight >= max + m.spec().maxqueue) {
                continue;
            }
            if (m == avoid) {
                avoided = m;
                continue;
            }
            // HAProxy's tree key: in-flight streams per unit of effective weight.
            long load = (long) inflight * 256 * Member.SCALE / Math.max(1, f.weights[i]);
            if (load < bestLoad) {
                best = m;
                bestLoad = load;
            }
        }
        return best != null ? best : avoided;
    }
}
