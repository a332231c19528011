package io.fulcrum.pool;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.InetText;
import io.fulcrum.server.Server;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * {@code show servers conn [<backend>]}: each server's connections, the idle ones counted in each event
 * loop's pool (asked of the loops themselves, whose pools are theirs alone). Fulcrum has no purge delay,
 * unsafe/safe split nor connection estimate yet: those columns show HAProxy's defaults and zeros.
 */
final class PoolCommands {
    /** HAProxy's default {@code pool-purge-delay}. */
    private static final int PURGE_DELAY_MS = 5000;

    private PoolCommands() {
    }

    static void register(CliCommands c) {
        c.add("show servers conn", "show servers conn [<backend>]", "dump server connections status (all or for a single backend)",
                CliLevel.USER, PoolCommands::show);
    }

    private static void show(CliRequest r) throws CliException {
        Collection<Backend> backends = r.process().backends().values();
        if (!r.arg(3).isEmpty()) {
            Backend b = r.process().backends().get(r.arg(3));
            if (b == null) {
                throw new CliException("Can't find backend.\n");
            }
            backends = List.of(b);
        }
        List<EventExecutor> loops = new ArrayList<>();
        r.process().loops().group().forEach(loops::add);
        StringBuilder out = new StringBuilder("# bkname/svname bkid/svid addr port - purge_delay used_cur used_max need_est unsafe_nb"
                + " safe_nb idle_lim idle_cur idle_per_thr[" + loops.size() + "]\n");
        for (Backend b : backends) {
            for (Server s : b.servers()) {
                List<Integer> idle = new ArrayList<>();
                for (EventExecutor loop : loops) {
                    Future<Integer> n = loop.submit(() -> ServerPool.current().idleCount(s));
                    idle.add(n.syncUninterruptibly().getNow());
                }
                Server.Address a = s.address();
                out.append(b.name()).append('/').append(s.name()).append(' ').append(b.numericId()).append('/').append(s.numericId())
                        .append(' ').append(a.endpoint() instanceof Endpoint.Inet inet ? InetText.of(inet.host()) : "-")
                        .append(' ').append(a.port()).append(" - ").append(PURGE_DELAY_MS).append(' ')
                        .append(s.currentConnections()).append(' ').append(s.streams().peak()).append(" 0 0 0 ")
                        .append(ServerPool.MAX_IDLE_PER_SERVER * loops.size()).append(' ')
                        .append(idle.stream().mapToInt(Integer::intValue).sum());
                idle.forEach(n -> out.append(' ').append(n));
                out.append('\n');
            }
        }
        r.print(out);
    }
}
