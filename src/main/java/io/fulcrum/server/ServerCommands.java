package io.fulcrum.server;

import io.fulcrum.backend.Backend;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

/**
 * The CLI commands on servers' administrative state, weight and limit (management.txt 9.3): disable/enable
 * server, set server state|weight|addr, set/get weight, set maxconn server, show backend.
 */
final class ServerCommands {
    private ServerCommands() {
    }

    static void register(CliCommands c, SetServer set) {
        c.add("disable server", "disable server (DEPRECATED)", "disable a server for maintenance (use 'set server' instead)",
                CliLevel.ADMIN, r -> maint(target(r).server().state()));
        c.add("enable server", "enable server  (DEPRECATED)", "enable a disabled server (use 'set server' instead)",
                CliLevel.ADMIN, r -> ready(target(r).server().state()));
        c.add("set server", "set server <bk>/<srv> [opts]", "change a server's state, weight, address or ssl", CliLevel.ADMIN, set::run);
        c.add("set weight", "set weight <bk>/<srv>  (DEPRECATED)", "change a server's weight (use 'set server' instead)",
                CliLevel.ADMIN, r -> setWeight(target(r), r.arg(3)));
        c.add("get weight", "get weight <bk>/<srv>", "report a server's current weight", CliLevel.USER, r -> {
            ServerState st = target(r).server().state();
            r.print(st.weight() + " (initial " + st.initialWeight() + ")\n");
        });
        c.add("set maxconn server", "set maxconn server <bk>/<srv>", "change a server's maxconn setting", CliLevel.ADMIN, r -> {
            String complaint = ServerLookup.server(r.process(), r.arg(3)).server().changeMaxconn(r.arg(4));
            if (complaint != null) {
                throw new CliException(complaint);
            }
        });
        c.add("show backend", "show backend", "list backends in the current running config", CliLevel.USER, r -> {
            StringBuilder b = new StringBuilder("# name\n");
            r.process().backends().keySet().forEach(n -> b.append(n).append('\n'));
            r.print(b);
        });
        set.add("state", (r, t) -> {
            ServerState st = t.server().state();
            switch (r.arg(4)) {
                case "ready" -> ready(st);
                case "drain" -> {
                    st.setAdmin(ServerState.FDRAIN);
                    st.clearAdmin(ServerState.FMAINT);
                }
                case "maint" -> maint(st);
                default -> throw new CliException("'set server <srv> state' expects 'ready', 'drain' and 'maint'.\n");
            }
        });
        set.add("weight", (r, t) -> setWeight(t, r.arg(4)));
        set.add("addr", ServerAddressChange::run);
    }

    private static ServerLookup.Target target(CliRequest r) throws CliException {
        return ServerLookup.server(r.process(), r.arg(2));
    }

    /** HAProxy's srv_adm_set_maint(): forced maintenance replaces a forced drain. */
    private static void maint(ServerState st) {
        st.setAdmin(ServerState.FMAINT);
        st.clearAdmin(ServerState.FDRAIN);
    }

    /** HAProxy's srv_adm_set_ready(): neither forced drain nor maintenance (the configured one included). */
    private static void ready(ServerState st) {
        st.clearAdmin(ServerState.FDRAIN);
        st.clearAdmin(ServerState.FMAINT);
    }

    private static void setWeight(ServerLookup.Target t, String text) throws CliException {
        ServerState st = t.server().state();
        int w = parseWeight(text, st.initialWeight());
        Backend b = t.backend();
        if (w != 0 && w != st.initialWeight() && !b.dynamicWeights()) {
            throw new CliException("Backend is using a static LB algorithm and only accepts weights '0%' and '100%'.\n");
        }
        st.setWeight(w);
    }

    /**
     * A weight as {@code set weight} reads it (HAProxy's server_parse_weight_change_request()): absolute
     * 0..256, or "N%" of the initial weight (capped at 256). Messages and their order are HAProxy's.
     */
    static int parseWeight(String text, int initial) throws CliException {
        if (text.isEmpty()) {
            throw new CliException("Require <weight> or <weight%>.\n");
        }
        LeadingNumber n = LeadingNumber.read(text);
        if (n == null) {
            throw new CliException("Empty weight string empty or preceded by garbage");
        }
        long w = n.value();
        String end = n.rest();
        if (end.equals("%")) {
            if (w < 0) {
                throw new CliException("Relative weight must be positive.\n");
            }
            return (int) Math.min(256, (long) initial * Math.min(w, 25600) / 100);
        }
        if (w < 0 || w > 256) {
            throw new CliException("Absolute weight can only be between 0 and 256 inclusive.\n");
        }
        if (!end.isEmpty()) {
            throw new CliException("Trailing garbage in weight string");
        }
        return (int) w;
    }
}
