package io.fulcrum.stats;

import io.fulcrum.backend.Backend;
import io.fulcrum.check.ServerChecks;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;
import io.fulcrum.server.ServerState.Op;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The stats page's admin form ({@code stats admin}): {@code b=<backend or #id>&action=<action>&s=<server>...}
 * (application/x-www-form-urlencoded), applied to each named server through its state machine and its checks, as
 * HAProxy's stats_process_http_post() does. The last {@code b} and {@code action} win.
 */
final class StatsAdmin {
    /** The longest "key=value" HAProxy reads (its key buffer). */
    private static final int MAX_PARAM = 1024;
    private static final String WHY = ", changed from Web interface";

    private StatsAdmin() {
    }

    /** Applies the form {@code body}: DONE, PART (some servers unknown), NONE (no server named), ERRP (invalid). */
    static StatsStatus apply(Fulcrum process, String body) {
        String backendName = null;
        String action = null;
        List<String> servers = new ArrayList<>();
        for (String param : body.isEmpty() ? new String[0] : body.split("&", -1)) {
            if (param.isEmpty() || param.length() >= MAX_PARAM) {
                return StatsStatus.ERRP;
            }
            int eq = param.indexOf('=');
            String key = decode(eq < 0 ? param : param.substring(0, eq));
            String value = decode(eq < 0 ? "" : param.substring(eq + 1));
            if (key == null || value == null) {
                break;
            }
            switch (key) {
                case "b" -> backendName = value;
                case "action" -> action = value;
                case "s" -> servers.add(value);
                default -> {
                }
            }
        }
        Backend backend = null;
        if (backendName != null) {
            backend = backend(process, backendName);
            if (backend == null) {
                return StatsStatus.ERRP;
            }
        }
        if (action != null && !isAction(action)) {
            return StatsStatus.ERRP;
        }
        if (backend == null || action == null || servers.isEmpty()) {
            return StatsStatus.NONE;
        }
        int altered = 0;
        for (String name : servers) {
            Server s = backend.servers().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            if (s != null && act(process, s, action)) {
                altered++;
            }
        }
        return altered == 0 ? StatsStatus.ERRP : altered == servers.size() ? StatsStatus.DONE : StatsStatus.PART;
    }

    private static boolean isAction(String a) {
        return switch (a) {
            case "ready", "drain", "maint", "dhlth", "ehlth", "hrunn", "hnolb", "hdown", "dagent", "eagent", "arunn", "adown",
                 "disable", "enable", "stop", "start" -> true;
            default -> false;
        };
    }

    /** Applies {@code action} to {@code s}; false when it does not apply (HAProxy then does not count it as altered). */
    private static boolean act(Fulcrum process, Server s, String action) {
        ServerState st = s.state();
        ServerChecks checks = process.checks() == null ? null : process.checks().of(s);
        boolean health = checks != null && checks.hasHealthCheck();
        boolean agent = checks != null && checks.hasAgent();
        switch (action) {
            case "ready" -> {
                st.clearAdmin(ServerState.FDRAIN);
                st.clearAdmin(ServerState.FMAINT);
            }
            case "drain" -> {
                st.setAdmin(ServerState.FDRAIN);
                st.clearAdmin(ServerState.FMAINT);
            }
            case "maint" -> {
                st.setAdmin(ServerState.FMAINT);
                st.clearAdmin(ServerState.FDRAIN);
            }
            // The actions of HAProxy's older forms: they count only when they change something.
            case "disable", "enable" -> {
                return toggle(st, ServerState.FMAINT, action.equals("disable"));
            }
            case "stop", "start" -> {
                return toggle(st, ServerState.FDRAIN, action.equals("stop"));
            }
            case "dhlth", "ehlth" -> {
                if (!health) {
                    return false;
                }
                checks.healthEnabled(action.equals("ehlth"));
            }
            case "dagent", "eagent" -> {
                if (!agent) {
                    return false;
                }
                checks.agentEnabled(action.equals("eagent"));
            }
            case "hrunn", "hnolb", "hdown" -> {
                if (st.tracked() != null) {
                    return false;
                }
                Op op = switch (action) {
                    case "hrunn" -> Op.RUNNING;
                    case "hnolb" -> Op.STOPPING;
                    default -> Op.STOPPED;
                };
                if (checks != null) {
                    checks.forceHealthLater(op, WHY);
                } else {
                    st.setOp(op, WHY);
                }
            }
            default -> { // arunn, adown
                if (!agent || !checks.agentEnabled()) {
                    return false;
                }
                checks.forceAgentLater(action.equals("arunn"), WHY);
            }
        }
        return true;
    }

    /** Sets or clears an administrative flag; false when it already was so. */
    private static boolean toggle(ServerState st, int flag, boolean on) {
        if (((st.admin() & flag) != 0) == on) {
            return false;
        }
        if (on) {
            st.setAdmin(flag);
        } else {
            st.clearAdmin(flag);
        }
        return true;
    }

    /** HAProxy's proxy_be_by_name(): "#<id>" or a name, among the proxies that have a backend side. */
    private static Backend backend(Fulcrum process, String name) {
        for (Backend b : process.backends().values()) {
            if (name.startsWith("#") ? name.substring(1).equals(Integer.toString(b.numericId())) : b.name().equals(name)) {
                return b;
            }
        }
        return null;
    }

    /** Form decoding: '+' is a space, %XX a byte; null when an escape is malformed. */
    private static String decode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c != '%') {
                out.write(c);
            } else if (i + 2 < s.length() && Character.digit(s.charAt(i + 1), 16) >= 0 && Character.digit(s.charAt(i + 2), 16) >= 0) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                return null;
            }
        }
        return out.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
