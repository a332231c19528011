package io.fulcrum.check;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Units;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;
import io.fulcrum.conn.InetText;
import io.fulcrum.server.ServerLookup;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.SetServer;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The {@code set server} sub-commands that say where the checks go and what the agent is sent (management.txt 9.3):
 * {@code check-addr}, {@code check-port}, {@code agent-addr}, {@code agent-port}, {@code agent-send} (and Fulcrum's
 * {@code agent-inter}). As HAProxy 2.6
 * (srv_update_check_addr_port(), srv_update_agent_addr_port()): a missing argument is an error, anything else wrong
 * is a warning, and either way nothing is applied; the next check uses what was set.
 */
final class CheckTargetCommands {
    /** Parsed and validated: the address (null: unchanged) and the port (negative: unchanged). */
    private record Move(InetAddress addr, int port) {
    }

    /** Why a request is not applied: HAProxy's warning text. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private CheckTargetCommands() {
    }

    static void register(SetServer set) {
        set.add("check-addr", (r, t) -> {
            required(r, "check-addr", "an address and optionally a port");
            health(r, t, r.arg(4), r.arg(5).equals("port") ? r.arg(6) : null);
        });
        set.add("check-port", (r, t) -> {
            required(r, "check-port", "a port");
            health(r, t, null, r.arg(4));
        });
        set.add("agent-addr", (r, t) -> {
            required(r, "agent-addr", "an address and optionally a port");
            agent(r, t, r.arg(4), r.arg(5).equals("port") ? r.arg(6) : null);
        });
        set.add("agent-port", (r, t) -> {
            required(r, "agent-port", "a port");
            agent(r, t, null, r.arg(4));
        });
        set.add("agent-send", (r, t) -> {
            ServerChecks k = r.process().checks().of(t.server());
            if (!k.agentEnabled()) {
                throw new CliException("agent checks are not enabled on this server.\n");
            }
            k.agentSend(r.arg(4));
        });
        // Not in HAProxy 2.6 (its 'add server' takes agent-inter, no 'set server'): the issue asks for it.
        set.add("agent-inter", (r, t) -> {
            required(r, "agent-inter", "a delay");
            ServerChecks k = r.process().checks().of(t.server());
            try {
                if (!k.agentEnabled()) {
                    throw new Refused("agent checks are not enabled on this server");
                }
                k.agentInter(delay(r.arg(4)));
            } catch (Refused e) {
                r.feedback(Severity.WARNING, e.getMessage());
            }
        });
    }

    /** A positive delay with HAProxy's time units, in ms by default. */
    private static long delay(String text) throws Refused {
        long ms;
        try {
            ms = Units.time(text, "agent-inter");
        } catch (ConfigException e) {
            throw new Refused("invalid delay '" + text + "'");
        }
        if (ms < 1 || ms > Integer.MAX_VALUE) {
            throw new Refused("invalid delay '" + text + "'");
        }
        return ms;
    }

    private static void required(CliRequest r, String what, String needs) throws CliException {
        if (r.arg(4).isEmpty()) {
            throw new CliException("set server <b>/<s> " + what + " requires " + needs + ".\n");
        }
    }

    /** The health check's address (a literal one: HAProxy resolves no name here) and port. */
    private static void health(CliRequest r, ServerLookup.Target t, String addr, String port) {
        ServerChecks k = r.process().checks().of(t.server());
        try {
            if (!k.healthEnabled()) {
                throw new Refused("health checks are not enabled on this server");
            }
            InetAddress ip = addr == null ? null : InetText.literal(addr);
            if (addr != null && ip == null) {
                throw new Refused("invalid addr '" + addr + "'");
            }
            int p = port == null ? -1 : port(port);
            // A server whose port follows the client's needs the checks' own port.
            if (p == 0 && t.server().address().portMode() != ServerSpec.PortMode.FIXED) {
                throw new Refused("can't unset 'port' since MAPPORTS is in use");
            }
            k.moveHealth(ip, p);
        } catch (Refused e) {
            r.feedback(Severity.WARNING, e.getMessage());
        }
    }

    /** The agent's address (a name is resolved, as HAProxy's str2ip() does) and port. */
    private static void agent(CliRequest r, ServerLookup.Target t, String addr, String port) {
        ServerChecks k = r.process().checks().of(t.server());
        try {
            if (!k.agentEnabled()) {
                throw new Refused("agent checks are not enabled on this server");
            }
            InetAddress ip = addr == null ? null : resolve(addr);
            k.moveAgent(ip, port == null ? -1 : port(port));
        } catch (Refused e) {
            r.feedback(Severity.WARNING, e.getMessage());
        }
    }

    private static InetAddress resolve(String addr) throws Refused {
        InetAddress ip = InetText.literal(addr);
        if (ip != null) {
            return ip;
        }
        try {
            return InetAddress.getByName(addr);
        } catch (UnknownHostException | SecurityException e) {
            throw new Refused("invalid addr '" + addr + "'");
        }
    }

    /** A port as HAProxy reads it here (strl2irc(): an optional '-' then digits, within an int), 0..65535. */
    static int port(String text) throws Refused {
        boolean negative = text.startsWith("-");
        long v = 0;
        long limit = negative ? -(long) Integer.MIN_VALUE : Integer.MAX_VALUE;
        if (text.isEmpty()) {
            throw new Refused("provided port is not an integer");
        }
        for (int i = negative ? 1 : 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9' || (v = v * 10 + c - '0') > limit) {
                throw new Refused("provided port is not an integer");
            }
        }
        if (negative && v != 0 || v > 65535) {
            throw new Refused("provided port is invalid");
        }
        return (int) v;
    }
}
