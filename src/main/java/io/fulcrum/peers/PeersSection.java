package io.fulcrum.peers;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.conn.AddressParser;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.log.LogModule;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.tls.TlsSections;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.stick.StickTables;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code peers <name>} sections (configuration.txt 3.5): {@code peer}, {@code server}, {@code bind},
 * {@code default-server}, {@code default-bind}, {@code disabled}, {@code enabled} and {@code table}, with HAProxy 2.6's
 * messages, and the global {@code localpeer}. The server and bind options that set TLS between peers are read by the
 * server and bind option tables (as HAProxy reads them); the others are refused with a clear message. {@code log} and
 * {@code no log} are checked as a proxy's and, as in HAProxy 2.6, get nothing to send.
 */
final class PeersSection {
    static final TableKey<PeersSpec> KEYWORDS = new TableKey<>("peers");
    /** The local peer's name: -L, else {@code localpeer}, else the host's name. */
    static final String LOCAL_PEER = "HAPROXY_LOCALPEER";
    /** The server options a peer takes: TLS. */
    private static final Set<String> SERVER_TLS = Set.of("ssl", "no-ssl", "verify", "ca-file", "crt", "verifyhost", "no-verifyhost",
            "ciphers", "ciphersuites", "ssl-min-ver", "ssl-max-ver", "ssl-reuse", "no-ssl-reuse", "no-sslv3", "no-tlsv10", "no-tlsv11",
            "no-tlsv12", "no-tlsv13", "force-sslv3", "force-tlsv10", "force-tlsv11", "force-tlsv12", "force-tlsv13");
    /** The bind options the local peer's listener takes: TLS. */
    private static final Set<String> BIND_TLS = Set.of("ssl", "crt", "crt-list", "ca-file", "verify", "crl-file", "ciphers",
            "ciphersuites", "ssl-min-ver", "ssl-max-ver", "curves", "ecdhe", "strict-sni", "no-sslv3", "no-tlsv10", "no-tlsv11",
            "no-tlsv12", "no-tlsv13", "force-sslv3", "force-tlsv10", "force-tlsv11", "force-tlsv12", "force-tlsv13");

    /** The option tables the lines read. */
    private record Options(KeywordTable<ServerSpec> server, KeywordTable<BindSpec> bind) {
    }

    private PeersSection() {
    }

    static void register(Registry registry, PeersConfig config) {
        KeywordTable<PeersSpec> keywords = registry.table(KEYWORDS);
        StickTables tables = StickTables.of(registry);
        Options o = new Options(registry.table(ServerModule.OPTIONS), registry.table(ListenerModule.OPTIONS));
        keywords.add("peer", (p, l) -> peer(p, l, true, o));
        keywords.add("server", (p, l) -> peer(p, l, false, o));
        keywords.add("bind", (p, l) -> bind(p, l, o));
        keywords.add("default-server", (p, l) -> serverOptions(p.servers.defaults, l, 1, "'default-server'", o));
        keywords.add("default-bind", (p, l) -> {
            bindOptions(new BindSpec(l.source(), "", List.of()), l, 1, "'default-bind'", o); // its errors are its line's
            p.defaultBind = l;
        });
        keywords.add("disabled", (p, l) -> p.disabled = true);
        keywords.add("enabled", (p, l) -> p.disabled = false);
        // Checked as a proxy's: HAProxy 2.6 accepts it but sends nothing there (its peers' sessions are not logged).
        keywords.add("log", (p, l) -> LogModule.checkLogLine(l));
        keywords.add("no", (p, l) -> {
            if (!l.arg(1).equals("log")) {
                throw keywords.unknown("no " + l.arg(1), "unknown keyword 'no " + l.arg(1) + "' in 'peers' section");
            }
            LogModule.checkLogLine(l);
        });
        keywords.add("table", (p, l) -> tables.declare(p.name, l));
        registry.section("peers", (header, model) -> open(header, model, keywords, config));
        registry.table(GlobalModule.KEYWORDS).add("localpeer", (g, l) -> localPeer(g, l, config));
    }

    /** {@code localpeer <name>}: ignored after a peers section, or when {@code -L} named the local peer. */
    private static void localPeer(GlobalModule.GlobalContext g, ConfigLine l, PeersConfig config) throws ConfigException {
        Args.noMoreThan(l, 1, "localpeer");
        String name = Args.required(l, 1, "localpeer", "a name as an argument");
        if (g.env().fixed(LOCAL_PEER)) {
            l.warn("'localpeer' ignored since it is already set by using the '-L' command line argument.");
        } else if (!config.sections.isEmpty()) {
            l.warn("'localpeer' ignored since it is used after 'peers' section.");
        } else {
            g.env().set(LOCAL_PEER, name);
        }
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<PeersSpec> keywords, PeersConfig config)
            throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing name for peers section.");
        }
        if (header.has(2)) {
            throw new ConfigException("'peers' cannot handle unexpected argument '" + header.arg(2) + "'.");
        }
        Map<String, PeersSpec> sections = config.sections;
        PeersSpec previous = sections.get(name);
        if (previous != null) {
            throw new ConfigException("peers section '" + name + "' has the same name as another peers section declared at "
                    + previous.source.file() + ":" + previous.source.line() + ".");
        }
        PeersSpec spec = new PeersSpec(name, header.source(), model.env().get(LOCAL_PEER));
        sections.put(name, spec);
        TlsSections.of(model).add(spec.proxy);
        return line -> {
            KeywordTable.Entry<PeersSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'peers' section");
            }
            e.parser().parse(spec, line);
        };
    }

    /**
     * {@code peer <name> <addr> [options]} or {@code server <name> [<addr> options]}: the options are a server's, and
     * on the local peer's {@code peer} line its listener's too, as HAProxy reads them.
     */
    private static void peer(PeersSpec p, ConfigLine l, boolean peerLine, Options o) throws ConfigException {
        String kw = l.keyword();
        if (peerLine && p.sawBind) {
            throw new ConfigException("mixing \"peer\" and \"bind\" line is forbidden");
        }
        String name = l.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("'" + kw + "' expects <name> and <addr>[:<port>] as arguments.");
        }
        boolean local = name.equals(p.localName);
        PeersSpec.Peer same = p.peer(name);
        if (local && same != null) {
            throw new ConfigException("'" + kw + " " + name + "' : local peer name already referenced at " + same.source().file() + ":"
                    + same.source().line() + ". " + name);
        }
        if (local && !peerLine && l.has(2)) {
            throw new ConfigException("'server " + name + "/" + name + "' : unknown keyword '" + l.arg(2)
                    + "'. Hint: no address was expected for this server.");
        }
        InetSocketAddress address = null;
        int options = 2;
        if (l.has(2) && (peerLine || looksLikeAddress(l.arg(2)))) {
            address = address(l.arg(2));
            options = 3;
        }
        ServerSpec server = p.servers.defaults.copy();
        server.name = name;
        server.source = l.source();
        // HAProxy names no proxy there: its peers section's server is parsed before it belongs to one
        serverOptions(server, l, options, "'server (null)/" + name + "'", o);
        p.servers.servers.add(server);
        if (local && address != null) {
            p.listener(listener(p, l, l.arg(2), options, "'peer " + name + "'", o));
        }
        p.sawPeerLine |= peerLine;
        p.peers.add(new PeersSpec.Peer(name, address, l.source(), server));
    }

    private static boolean looksLikeAddress(String word) {
        return word.indexOf(':') >= 0 || word.indexOf('@') >= 0;
    }

    private static void bind(PeersSpec p, ConfigLine l, Options o) throws ConfigException {
        if (p.sawPeerLine) {
            throw new ConfigException("mixing \"peer\" and \"bind\" line is forbidden");
        }
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'bind' expects [addr1]:port1[-end1]{,[addr]:port[-end]}... as arguments.");
        }
        p.bind = address(l.arg(1));
        p.sawBind = true;
        p.listener(listener(p, l, l.arg(1), 2, "'bind " + l.arg(1) + "'", o));
    }

    /** The first IP address of {@code text}, as a bind line reads it. */
    private static InetSocketAddress address(String text) throws ConfigException {
        List<Endpoint> endpoints = AddressParser.listeners(text);
        if (endpoints.size() != 1 || !(endpoints.getFirst() instanceof Endpoint.Inet inet)) {
            throw new ConfigException("invalid address: '" + text + "' (a peer takes one IP address and port).");
        }
        return inet.socketAddress();
    }

    private static void serverOptions(ServerSpec s, ConfigLine l, int from, String where, Options o) throws ConfigException {
        onlyTls(l, from, o.server, SERVER_TLS, where);
        ServerModule.parseOptions(s, l, from, where, o.server);
    }

    /** The local peer's listener: the options of {@code default-bind}, then the line's. */
    private static BindSpec listener(PeersSpec p, ConfigLine l, String address, int from, String where, Options o) throws ConfigException {
        BindSpec b = new BindSpec(l.source(), address, AddressParser.listeners(address));
        if (p.defaultBind != null) {
            bindOptions(b, p.defaultBind, 1, "'default-bind'", o);
        }
        bindOptions(b, l, from, where, o);
        return b;
    }

    private static void bindOptions(BindSpec b, ConfigLine l, int from, String where, Options o) throws ConfigException {
        onlyTls(l, from, o.bind, BIND_TLS, where);
        ListenerModule.OptionErrors errors = new ListenerModule.OptionErrors() {
            @Override
            public String unknown(String opt, String suggestion) {
                return where + " in section 'peers' : " + (suggestion != null ? suggestion : "unknown keyword '" + opt + "'.");
            }

            @Override
            public String invalid(String message) {
                return where + " in section 'peers' : " + message;
            }
        };
        ListenerModule.options(b, l, from, o.bind, errors);
    }

    /** Options other than TLS ones make no sense between peers: said, never ignored. */
    private static <T> void onlyTls(ConfigLine l, int from, KeywordTable<T> table, Set<String> allowed, String where)
            throws ConfigException {
        for (int i = from; i < l.size(); ) {
            KeywordTable.Entry<T> e = table.find(l.arg(i));
            if (e != null && !allowed.contains(e.name())) {
                throw new ConfigException(where + " : '" + l.arg(i) + "' is not supported in peers sections by Fulcrum "
                        + "(only the TLS options are).");
            }
            i += 1 + (e == null ? 0 : e.flags());
        }
    }
}
