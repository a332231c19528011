package io.fulcrum.server;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Token;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;
import io.fulcrum.pool.PoolSettings;
import io.fulcrum.runtime.Fulcrum;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code add server} and {@code del server} (management.txt 9.3): servers created and deleted at run time, with
 * HAProxy 2.6's rules and answers. A new server has no {@code default-server} setting, does not resolve its address
 * ({@code init-addr none}) and starts in maintenance; it is deleted only from maintenance, idle, unreferenced.
 */
public final class DynamicServers {
    private final List<Hook> hooks = new CopyOnWriteArrayList<>();

    /** What another subsystem does for a server added or deleted at run time (its checks, its idle connections). */
    public interface Hook {
        /** Refuses the server about to join {@code b} with HAProxy's message (and its newline), or returns. */
        default void check(Fulcrum process, Backend b, ServerSpec s) throws CliException {
        }

        /** {@code s} joined {@code b} (in maintenance unless its line says {@code enabled}). */
        default void added(Fulcrum process, Backend b, Server s) {
        }

        /** {@code s} left {@code b}: nothing may keep it. */
        default void deleted(Fulcrum process, Backend b, Server s) {
        }
    }

    /** Adds what a subsystem does for the servers added and deleted at run time. */
    public static void hook(Registry registry, Hook hook) {
        registry.component(DynamicServers.class, DynamicServers::new).hooks.add(hook);
    }

    /** The server keywords HAProxy 2.6 takes on {@code add server} (its documented list and the "no-" forms it accepts). */
    private static final Set<String> ACCEPTED = Set.of("agent-addr", "agent-check", "agent-inter", "agent-port", "agent-send",
            "allow-0rtt", "alpn", "addr", "backup", "no-backup", "ca-file", "check", "check-alpn", "check-proto", "check-send-proxy",
            "check-sni", "check-ssl", "check-via-socks4", "ciphers", "ciphersuites", "crl-file", "crt", "disabled", "downinter",
            "enabled", "error-limit", "fall", "fastinter", "force-sslv3", "force-tlsv10", "force-tlsv11", "force-tlsv12",
            "force-tlsv13", "id", "inter", "maxconn", "maxqueue", "minconn", "no-ssl-reuse", "no-sslv3", "no-tlsv10", "no-tlsv11",
            "no-tlsv12", "no-tlsv13", "no-tls-tickets", "npn", "observe", "on-error", "on-marked-down", "on-marked-up",
            "pool-low-conn", "pool-max-conn", "pool-purge-delay", "port", "proto", "proxy-v2-options", "rise", "send-proxy",
            "no-send-proxy", "send-proxy-v2", "no-send-proxy-v2", "send-proxy-v2-ssl", "send-proxy-v2-ssl-cn", "slowstart", "sni",
            "source", "ssl", "ssl-max-ver", "ssl-min-ver", "tfo", "no-tfo", "tls-tickets", "track", "usesrc", "verify",
            "verifyhost", "weight", "ws");

    /**
     * Among those, the ones Fulcrum does not take at run time yet: the TLS layers and {@code source} of the configured
     * servers are built once the whole configuration is read (docs/differences.md).
     */
    private static final Set<String> NOT_YET = Set.of("allow-0rtt", "alpn", "ca-file", "check-alpn", "check-proto", "check-sni",
            "check-ssl", "check-via-socks4", "ciphers", "ciphersuites", "crl-file", "crt", "force-sslv3", "force-tlsv10",
            "force-tlsv11", "force-tlsv12", "force-tlsv13", "no-ssl-reuse", "no-sslv3", "no-tlsv10", "no-tlsv11", "no-tlsv12",
            "no-tlsv13", "no-tls-tickets", "npn", "sni", "source", "ssl", "ssl-max-ver",
            "ssl-min-ver", "tls-tickets", "usesrc", "verify", "verifyhost");

    /** Where HAProxy says a dynamic server was defined (its messages about a taken id). */
    private static final Source CLI = new Source("(null)", 0);

    static void register(Registry registry, KeywordTable<ServerSpec> options) {
        DynamicServers d = registry.component(DynamicServers.class, DynamicServers::new);
        CliCommands c = CliCommands.of(registry);
        c.add("add server", "add server <bk>/<srv>", "create a new server", CliLevel.ADMIN, r -> d.add(r, options));
        c.add("del server", "del server <bk>/<srv>", "remove a dynamically added server", CliLevel.ADMIN, d::delete);
    }

    private void add(CliRequest r, KeywordTable<ServerSpec> options) throws CliException {
        String[] names = ServerLookup.names(r.arg(2), "");
        Backend b = ServerLookup.backend(r.process(), names[0], "");
        if (!b.algorithm().takesDynamicServers(b.balance().consistent)) {
            throw new CliException("Backend must use a dynamic load balancing to support dynamic servers.");
        }
        ServerSpec s = parse(r, names[1], options);
        synchronized (b.rosterLock()) {
            // In HAProxy's order: the id when its keyword is parsed, the mux, then the name.
            for (Server other : b.servers()) {
                if (s.id != 0 && other.numericId() == s.id) {
                    throw new CliException("'id' : custom id " + s.id + " already used at " + other.spec().source + " ('server "
                            + other.name() + "').\n");
                }
            }
            if (s.proto != null && !s.proto.equals(b.mode().mux())) {
                throw new CliException("MUX protocol is not usable for server.\n");
            }
            for (Hook h : hooks) {
                h.check(r.process(), b, s);
            }
            if (b.servers().stream().anyMatch(o -> o.name().equals(s.name))) {
                throw new CliException("Already exists a server with the same name in backend.\n");
            }
            Server server = new Server(b.serverGroup(), s, s.id != 0 ? s.id : b.nextServerId());
            for (Hook h : hooks) {
                h.added(r.process(), b, server);
            }
            b.add(server);
        }
        r.feedback(Severity.INFO, "New server registered.\n");
    }

    /**
     * The server the command's words describe, parsed as a server line with no default-server: its address then its
     * keywords, in order, each refused when HAProxy does not take it at run time (or Fulcrum does not yet).
     */
    private static ServerSpec parse(CliRequest r, String name, KeywordTable<ServerSpec> options) throws CliException {
        if (r.arg(3).isEmpty()) {
            throw new CliException("'server' expects <name> and <addr>[:<port>] as arguments.\n");
        }
        List<Token> words = new ArrayList<>();
        for (int i = 1; i < r.size(); i++) {
            words.add(new Token(i == 2 ? name : r.arg(i), 0));
        }
        ConfigLine line = new ConfigLine(CLI, String.join(" ", r.args()), words, null);
        ServerSpec s = new ServerSpec();
        s.name = name;
        s.source = CLI;
        s.dynamic = true;
        s.initAddr = "none";
        // No idle connection is kept unless the command asks (HAProxy's dynamic servers have no pool by default).
        PoolSettings pool = s.part(PoolSettings.class, PoolSettings::new);
        pool.maxConn = 0;
        pool.purgeDelay = 0;
        try {
            ServerAddress.parse(s, r.arg(3));
            ServerModule.parseOptions(s, line, 3, options, DynamicServers::refusal);
        } catch (ConfigException e) {
            throw new CliException(e.getMessage() + "\n");
        }
        ServerModule.settleMinconn(s);
        return s;
    }

    /** Why {@code keyword} is refused on a dynamic server, or null. */
    private static String refusal(String keyword) {
        if (!ACCEPTED.contains(keyword)) {
            return "'" + keyword + "' option is not accepted for dynamic server";
        }
        return NOT_YET.contains(keyword) ? "'" + keyword + "' option is not supported for dynamic server by Fulcrum yet" : null;
    }

    private void delete(CliRequest r) throws CliException {
        String[] names = ServerLookup.names(r.arg(2), "");
        Backend b = ServerLookup.backend(r.process(), names[0], "");
        Server s = ServerLookup.server(b, names[1]);
        if (s == null) {
            throw new CliException("No such server.");
        }
        if (s.referenced()) {
            throw new CliException("This server cannot be removed at runtime due to other configuration elements pointing to it.");
        }
        String refused = b.remove(s);
        if (refused != null) {
            throw new CliException(refused);
        }
        for (Hook h : hooks) {
            h.deleted(r.process(), b, s);
        }
        r.feedback(Severity.INFO, "Server deleted.");
    }
}
