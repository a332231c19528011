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
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.stick.StickTables;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * {@code peers <name>} sections (configuration.txt 3.5): {@code peer}, {@code server}, {@code bind},
 * {@code default-server}, {@code default-bind}, {@code disabled}, {@code enabled} and {@code table}, with HAProxy 2.6's
 * messages, and the global {@code localpeer}. Server and bind options (TLS between peers) and {@code log} are refused with
 * a clear message.
 */
final class PeersSection {
    static final TableKey<PeersSpec> KEYWORDS = new TableKey<>("peers");
    /** The local peer's name: -L, else {@code localpeer}, else the host's name. */
    static final String LOCAL_PEER = "HAPROXY_LOCALPEER";

    private PeersSection() {
    }

    static void register(Registry registry, PeersConfig config) {
        KeywordTable<PeersSpec> keywords = registry.table(KEYWORDS);
        StickTables tables = StickTables.of(registry);
        keywords.add("peer", (p, l) -> peer(p, l, true));
        keywords.add("server", (p, l) -> peer(p, l, false));
        keywords.add("bind", PeersSection::bind);
        keywords.add("default-server", (p, l) -> noOptions(l, 1, "default-server"));
        keywords.add("default-bind", (p, l) -> noOptions(l, 1, "default-bind"));
        keywords.add("disabled", (p, l) -> p.disabled = true);
        keywords.add("enabled", (p, l) -> p.disabled = false);
        keywords.add("log", (p, l) -> {
            throw new ConfigException("'log' in a peers section is not supported by Fulcrum yet.");
        });
        keywords.add("table", (p, l) -> tables.declare(p.name, l));
        registry.section("peers", (header, model) -> open(header, model, keywords, config));
        registry.table(GlobalModule.KEYWORDS).add("localpeer", (g, l) -> localPeer(g, l, config));
    }

    /** {@code localpeer <name>}: ignored after a peers section, or when {@code -L} named the local peer. */
    private static void localPeer(GlobalModule.GlobalContext g, ConfigLine l, PeersConfig config) throws ConfigException {
        Args.noMoreThan(l, 1, "localpeer");
        String name = Args.required(l, 1, "localpeer", "a name");
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
        return line -> {
            KeywordTable.Entry<PeersSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'peers' section");
            }
            e.parser().parse(spec, line);
        };
    }

    /** {@code peer <name> <addr>} or {@code server <name> [<addr>]}. */
    private static void peer(PeersSpec p, ConfigLine l, boolean peerLine) throws ConfigException {
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
        noOptions(l, options, "'server " + p.name + "/" + name + "'");
        p.sawPeerLine |= peerLine;
        p.peers.add(new PeersSpec.Peer(name, address, l.source()));
    }

    private static boolean looksLikeAddress(String word) {
        return word.indexOf(':') >= 0 || word.indexOf('@') >= 0;
    }

    private static void bind(PeersSpec p, ConfigLine l) throws ConfigException {
        if (p.sawPeerLine) {
            throw new ConfigException("mixing \"peer\" and \"bind\" line is forbidden");
        }
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'bind' expects [addr1]:port1[-end1]{,[addr]:port[-end]}... as arguments.");
        }
        p.bind = address(l.arg(1));
        p.sawBind = true;
        noOptions(l, 2, "'bind " + l.arg(1) + "'");
    }

    /** The first IP address of {@code text}, as a bind line reads it. */
    private static InetSocketAddress address(String text) throws ConfigException {
        List<Endpoint> endpoints = AddressParser.listeners(text);
        if (endpoints.size() != 1 || !(endpoints.getFirst() instanceof Endpoint.Inet inet)) {
            throw new ConfigException("invalid address: '" + text + "' (a peer takes one IP address and port).");
        }
        return inet.socketAddress();
    }

    /** Transport options of peers (ssl...) are not supported yet: said, never ignored. */
    private static void noOptions(ConfigLine l, int from, String what) throws ConfigException {
        if (l.has(from)) {
            throw new ConfigException(what + " : '" + l.arg(from) + "' is not supported in peers sections by Fulcrum yet "
                    + "(peers connect in clear TCP, without options).");
        }
    }
}
