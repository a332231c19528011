package io.fulcrum.resolvers;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cfg.Units;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * {@code resolvers <name>} sections (configuration.txt 5.3.2): {@code nameserver} (UDP or TCP), {@code parse-resolv-conf},
 * {@code accepted_payload_size}, {@code resolve_retries}, {@code timeout resolve|retry} and {@code hold}, with HAProxy
 * 2.6's messages. A value HAProxy would read as 0 through atoi() is an error here.
 */
final class ResolversSection {
    static final TableKey<ResolversSpec> KEYWORDS = new TableKey<>("resolvers");

    private ResolversSection() {
    }

    static void register(Registry registry, ResolversConfig config) {
        KeywordTable<ResolversSpec> keywords = registry.table(KEYWORDS);
        KeywordTable<ServerSpec> serverOptions = registry.table(ServerModule.OPTIONS);
        keywords.add("nameserver", (r, l) -> nameserver(r, l, serverOptions));
        keywords.add("parse-resolv-conf", (r, l) -> ResolvConf.read(r, l.source()));
        keywords.add("accepted_payload_size", (r, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'accepted_payload_size' expects <nb> as argument.");
            }
            String v = l.arg(1);
            if (!v.matches("[0-9]{1,6}") || Integer.parseInt(v) < 12 || Integer.parseInt(v) > 65535) {
                throw new ConfigException("'accepted_payload_size' must be between 12 and 65535 inclusive (was " + v + ").");
            }
            r.payloadSize = Integer.parseInt(v);
        });
        keywords.add("resolve_retries", (r, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'resolve_retries' expects <nb> as argument.");
            }
            r.retries = (int) Units.integer(l.arg(1), "resolve_retries", 0, Integer.MAX_VALUE);
        });
        keywords.add("timeout", ResolversSection::timeout);
        keywords.add("hold", ResolversSection::hold);
        registry.section("resolvers", (header, model) -> open(header, model, keywords, config));
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<ResolversSpec> keywords, ResolversConfig config)
            throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing name for resolvers section.");
        }
        Map<String, ResolversSpec> sections = config.sections;
        ResolversSpec previous = sections.get(name);
        if (previous != null) {
            throw new ConfigException("resolvers '" + name + "' has same name as another resolvers (declared at "
                    + previous.source.file() + ":" + previous.source.line() + ").");
        }
        ResolversSpec spec = new ResolversSpec(name, header.source());
        sections.put(name, spec);
        return line -> {
            KeywordTable.Entry<ResolversSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'resolvers' section");
            }
            e.parser().parse(spec, line);
        };
    }

    /**
     * {@code nameserver <name> <address>:<port> [param*]}: a datagram address, or a stream one ({@code tcp@}) whose
     * server parameters are checked as a server line's; Fulcrum uses {@code maxconn} and refuses the others. HAProxy
     * ignores parameters on a datagram line: Fulcrum says so.
     */
    private static void nameserver(ResolversSpec r, ConfigLine l, KeywordTable<ServerSpec> serverOptions) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("'nameserver' expects <name> and <addr>[:<port>] as arguments.");
        }
        String name = l.arg(1);
        ResolversSpec.Nameserver same = r.nameserver(name);
        if (same != null) {
            throw new ConfigException("nameserver '" + name + "' has same name as another nameserver (declared at "
                    + same.source().file() + ":" + same.source().line() + ").");
        }
        String text = l.arg(2);
        String prefix = text.indexOf('@') < 0 ? "" : text.substring(0, text.indexOf('@'));
        boolean stream = prefix.startsWith("tcp");
        InetSocketAddress address = address(name, stream ? switch (prefix) {
            case "tcp4" -> "ipv4";
            case "tcp6" -> "ipv6";
            default -> "udp";
        } + text.substring(prefix.length()) : text, text);
        int maxconn = 0;
        if (l.has(3) && stream) {
            ServerSpec params = new ServerSpec();
            ServerModule.parseOptions(params, l, 3, "'server " + r.name + "/" + name + "'", serverOptions);
            for (int i = 3; i < l.size(); i += 1 + serverOptions.find(l.arg(i)).flags()) {
                if (!l.arg(i).equals("maxconn")) {
                    throw new ConfigException("'nameserver " + name + "' : server parameter '" + l.arg(i)
                            + "' is not supported on nameservers by Fulcrum yet (only 'maxconn' is).");
                }
            }
            maxconn = params.maxconn;
        } else if (l.has(3) && l.diag() != null) {
            l.diag().configWarning("parsing [" + l.source().file() + ":" + l.source().line() + "] : 'nameserver " + name
                    + "' : server parameters apply to stream (tcp@) nameservers only: '" + l.arg(3) + "' and what follows are ignored.");
        }
        r.nameservers.add(new ResolversSpec.Nameserver(name, address, stream, maxconn, l.source()));
    }

    /**
     * A datagram address with a mandatory port: {@code [udp@|udp4@|udp6@|ipv4@|ipv6@]ip:port}; {@code text} is what
     * the line said, for the messages.
     */
    static InetSocketAddress address(String name, String datagram, String text) throws ConfigException {
        String where = "'nameserver " + name + "' : ";
        int at = datagram.indexOf('@');
        String prefix = at < 0 ? "" : datagram.substring(0, at);
        String rest = switch (prefix) {
            case "", "udp" -> datagram.substring(at + 1);
            case "udp4", "ipv4" -> "ipv4@" + datagram.substring(at + 1);
            case "udp6", "ipv6" -> "ipv6@" + datagram.substring(at + 1);
            default -> throw new ConfigException(where + "address family '" + prefix + "@' not supported for nameservers in '" + text + "'");
        };
        String hostPort = rest.substring(rest.indexOf('@') + 1);
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0 || hostPort.endsWith("]") || hostPort.indexOf(':') != colon && !hostPort.startsWith("[")) {
            throw new ConfigException(where + "missing port specification in '" + text + "'");
        }
        ServerSpec s;
        try {
            s = ServerSpec.fixedAddress(name, rest);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage().replace(rest, text));
        }
        if (!(s.endpoint instanceof Endpoint.Inet inet)) {
            throw new ConfigException(where + "a nameserver takes an IP address and a port, not '" + text + "'.");
        }
        return inet.socketAddress();
    }

    /** {@code timeout resolve|retry <time>}. */
    private static void timeout(ResolversSpec r, ConfigLine l) throws ConfigException {
        String event = l.arg(1);
        if (event.isEmpty()) {
            throw new ConfigException("'timeout' expects 'retry' or 'resolve' and <time> as arguments.");
        }
        if (!event.equals("resolve") && !event.equals("retry")) {
            throw new ConfigException("'timeout' expects 'retry' or 'resolve' and <time> as arguments got '" + event + "'.");
        }
        if (!l.has(2)) {
            throw new ConfigException("'timeout " + event + "' expects <time> as argument.");
        }
        long ms = Units.timeArgument(l.arg(2), "timeout " + event);
        if (event.equals("resolve")) {
            r.resolveMs = ms;
        } else {
            r.retryMs = ms;
        }
    }

    /** {@code hold <status> <period>}. */
    private static void hold(ResolversSpec r, ConfigLine l) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("'hold' expects an <event> and a <time> as arguments.\n"
                    + "<event> can be either 'valid', 'nx', 'refused', 'timeout', or 'other'");
        }
        String event = l.arg(1);
        long ms = Units.timeArgument(l.arg(2), "hold");
        switch (event) {
            case "nx" -> r.hold.put(DnsStatus.NX, ms);
            case "refused" -> r.hold.put(DnsStatus.REFUSED, ms);
            case "timeout" -> r.hold.put(DnsStatus.TIMEOUT, ms);
            case "other" -> r.hold.put(DnsStatus.OTHER, ms);
            case "obsolete" -> r.holdObsolete = ms;
            // do-resolve keeps no answer past its request (as HAProxy, whose resolution goes with its last requester):
            // the period is checked, nothing uses it.
            case "valid" -> { }
            default -> throw new ConfigException("'hold' unknown <event>: '" + event
                    + "', expects either 'nx', 'timeout', 'valid', 'obsolete' or 'other'.");
        }
    }
}
