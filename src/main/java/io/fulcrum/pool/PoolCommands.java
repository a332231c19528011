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

import java.util.Collection;
import java.util.List;

/** {@code show servers conn [<backend>]}: each server's connections in use and idle, in each event loop. */
final class PoolCommands {
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
        int loops = 0;
        for (EventExecutor ignored : r.process().loops().group()) {
            loops++;
        }
        StringBuilder out = new StringBuilder("# bkname/svname bkid/svid addr port - purge_delay used_cur used_max need_est unsafe_nb"
                + " safe_nb idle_lim idle_cur idle_per_thr[" + loops + "]\n");
        for (Backend b : backends) {
            for (Server s : b.servers()) {
                ServerIdle idle = ServerIdle.of(s);
                PoolSettings p = PoolSettings.of(s);
                Server.Address a = s.address();
                out.append(b.name()).append('/').append(s.name()).append(' ').append(b.numericId()).append('/').append(s.numericId())
                        .append(' ').append(a.endpoint() instanceof Endpoint.Inet inet ? InetText.of(inet.host()) : "-")
                        .append(' ').append(a.port()).append(" - ").append(p.purgeDelay).append(' ')
                        .append(idle.usedCount()).append(' ').append(idle.maxUsed()).append(' ').append(idle.estimate())
                        .append(' ').append(idle.idleCount() - idle.safeCount()).append(' ').append(idle.safeCount())
                        .append(' ').append(p.maxConn).append(' ').append(idle.idleCount());
                // (HAProxy has no per-thread idle lists for a server that keeps none: pool-max-conn 0, a dynamic server's default)
                for (int i = 0; p.maxConn != 0 && i < loops; i++) {
                    out.append(' ').append(idle.idleIn(i));
                }
                out.append('\n');
            }
        }
        r.print(out);
    }
}
