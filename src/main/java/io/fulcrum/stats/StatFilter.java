package io.fulcrum.stats;

import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.runtime.Fulcrum;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which rows {@code show stat} prints: {@code <iid|name> <type> <sid>} (-1: any; type a mask of 1 frontends,
 * 2 backends, 4 servers), {@code up} (servers up only), {@code no-maint} (servers not in maintenance). The stats
 * page's {@code ;up} and {@code ;no-maint} hide the same servers ({@link #hiddenByUp}, {@link #inMaintenance}).
 */
record StatFilter(int proxyId, int typeMask, int serverId, boolean upOnly, boolean noMaint) {

    /**
     * As HAProxy 2.6 reads them: three words after "stat" are always {@code <iid|name> <type> <sid>}, each a number
     * as atoi() reads it (a bad type is 0, which no row has: the header alone); a proxy neither named nor numbered
     * is "No such proxy." ("show stat up no-maint json" too).
     */
    static StatFilter parse(CliRequest r, Fulcrum process) throws CliException {
        int iid = -1;
        int mask = -1;
        int sid = -1;
        if (r.size() >= 5) {
            iid = proxyId(r.arg(2), process).orElseGet(() -> r.atoi(2));
            if (iid == 0) {
                throw new CliException("No such proxy.\n");
            }
            mask = r.atoi(3);
            sid = r.atoi(4);
        }
        return new StatFilter(iid, mask, sid, r.args().contains("up"), r.args().contains("no-maint"));
    }

    private static java.util.Optional<Integer> proxyId(String name, Fulcrum process) {
        return process.frontends().stream().filter(f -> f.name().equals(name)).map(f -> f.numericId()).findFirst()
                .or(() -> process.backends().values().stream().filter(b -> b.name().equals(name)).map(b -> b.numericId()).findFirst());
    }

    boolean accepts(StatRow row) {
        if (proxyId != -1 && row.proxyId() != proxyId) {
            return false;
        }
        int bit = switch (row.type()) {
            case FRONTEND -> 1;
            case BACKEND -> 2;
            case SERVER -> 4;
            case LISTENER -> 8;
        };
        if ((typeMask & bit) == 0) {
            return false;
        }
        if (row.type() == ObjType.SERVER) {
            if (serverId != -1 && row.serverId() != serverId) {
                return false;
            }
            return !(upOnly && hiddenByUp(row) || noMaint && inMaintenance(row));
        }
        return true;
    }

    /**
     * With {@code up} or {@code no-maint} (the page's {@code ;up}, {@code ;no-maint}), HAProxy 2.6 follows each
     * backend's status with how many of its servers are not stopped out of all of them, {@code UP (1/2)}, in every
     * format: counted over all the backend's servers, those the options hide too. A stopped server is one
     * {@code up} hides (in maintenance, or down).
     */
    static void countServers(List<StatRow> all) {
        Map<Integer, int[]> counts = new HashMap<>();
        for (StatRow r : all) {
            if (r.type() == ObjType.SERVER) {
                int[] c = counts.computeIfAbsent(r.proxyId(), id -> new int[2]);
                c[0] += hiddenByUp(r) ? 0 : 1;
                c[1]++;
            }
        }
        for (StatRow r : all) {
            if (r.type() == ObjType.BACKEND) {
                int[] c = counts.getOrDefault(r.proxyId(), new int[2]);
                r.put(StatField.STATUS, r.get(StatField.STATUS) + " (" + c[0] + "/" + c[1] + ")");
            }
        }
    }

    /** A server row in maintenance (MAINT, MAINT (via b/s), MAINT (resolution)). */
    static boolean inMaintenance(StatRow server) {
        return String.valueOf(server.get(StatField.STATUS)).startsWith("MAINT");
    }

    /**
     * What {@code up} hides, as haproxy 2.6 does: a server in maintenance and a down one (a DOWN status is the
     * stopped state), checked or not: one that tracks a down server, or one set down by "set server ... health
     * down", is hidden too. DRAIN and NOLB servers stay.
     */
    static boolean hiddenByUp(StatRow server) {
        return inMaintenance(server) || String.valueOf(server.get(StatField.STATUS)).startsWith("DOWN");
    }
}
