package io.fulcrum.stats;

import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.runtime.Fulcrum;

/**
 * Which rows {@code show stat} prints: {@code <iid|name> <type> <sid>} (-1: any; type a mask of 1 frontends,
 * 2 backends, 4 servers), {@code up} (servers up only), {@code no-maint} (servers not in maintenance). The stats
 * page's {@code ;up} and {@code ;no-maint} hide the same servers ({@link #hiddenByUp}, {@link #inMaintenance}).
 */
record StatFilter(int proxyId, int typeMask, int serverId, boolean upOnly, boolean noMaint) {

    static StatFilter parse(CliRequest r, Fulcrum process) throws CliException {
        int iid = -1;
        int mask = -1;
        int sid = -1;
        if (r.size() >= 5 && isNumber(r.arg(3)) && isNumber(r.arg(4))) {
            String px = r.arg(2);
            if (isNumber(px)) {
                iid = Integer.parseInt(px);
            } else {
                iid = proxyId(px, process);
            }
            mask = Integer.parseInt(r.arg(3));
            sid = Integer.parseInt(r.arg(4));
        }
        return new StatFilter(iid, mask, sid, r.args().contains("up"), r.args().contains("no-maint"));
    }

    private static int proxyId(String name, Fulcrum process) throws CliException {
        return process.frontends().stream().filter(f -> f.name().equals(name)).map(f -> f.numericId()).findFirst()
                .or(() -> process.backends().values().stream().filter(b -> b.name().equals(name)).map(b -> b.numericId()).findFirst())
                .orElseThrow(() -> new CliException("No such proxy.\n"));
    }

    private static boolean isNumber(String s) {
        return s.matches("-?\\d+");
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
