package io.fulcrum.backend;

import io.fulcrum.server.Server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Weighted round robin ({@code roundrobin}, {@code static-rr}). The schedule is computed once with the
 * smooth weighted algorithm, which spreads each server's turns evenly (weights 5,1,1 give a a b a c a a,
 * not a a a a a b c), then walked with one atomic counter, so picking takes no lock.
 */
final class WeightedRoundRobin implements LoadBalancer {
    private final List<Server> servers;
    /** Rebuilt after each change of a server's usability or weight (checks, CLI); read without a lock. */
    private volatile Server[] schedule;
    private final AtomicLong cursor = new AtomicLong();

    WeightedRoundRobin(List<Server> servers) {
        this.servers = servers;
        rebuild();
        servers.forEach(s -> s.onChange(this::rebuild));
    }

    private synchronized void rebuild() {
        schedule = build(servers.stream().filter(Server::usable).toList());
    }

    private static Server[] build(List<Server> servers) {
        int total = servers.stream().mapToInt(Server::weight).sum();
        int[] credit = new int[servers.size()];
        List<Server> out = new ArrayList<>(total);
        for (int turn = 0; turn < total; turn++) {
            int best = -1;
            for (int i = 0; i < servers.size(); i++) {
                credit[i] += servers.get(i).weight();
                if (best < 0 || credit[i] > credit[best]) {
                    best = i;
                }
            }
            credit[best] -= total;
            out.add(servers.get(best));
        }
        return out.toArray(new Server[0]);
    }

    @Override
    public Server pick() {
        Server[] s = schedule;
        if (s.length == 0) {
            return null;
        }
        return s[(int) (cursor.getAndIncrement() % s.length)];
    }
}
