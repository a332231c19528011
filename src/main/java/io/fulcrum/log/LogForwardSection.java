package io.fulcrum.log;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Units;
import io.fulcrum.conn.AddressParser;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.Services;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code log-forward <name>} sections (configuration.txt 3.10): {@code dgram-bind}, {@code bind}, {@code log},
 * {@code maxconn}, {@code backlog} and {@code timeout client}, with HAProxy 2.6's messages. Each section becomes a
 * {@link LogForwarder} the process runs.
 */
public final class LogForwardSection {
    private LogForwardSection() {
    }

    static final TableKey<LogForwardSpec> KEYWORDS = new TableKey<>("log-forward");

    static void register(Registry registry) {
        KeywordTable<LogForwardSpec> keywords = registry.table(KEYWORDS);
        keywords.add("dgram-bind", (f, l) -> f.datagrams.addAll(addresses(l, true)));
        keywords.add("bind", (f, l) -> f.streams.addAll(addresses(l, false)));
        keywords.add("log", (f, l) -> {
            if (l.arg(1).equals("global")) {
                Args.noMoreThan(l, 1, "log global");
                f.targets.add(ProxyLog.GLOBAL);
                return;
            }
            try {
                f.targets.add(LogTarget.parse(l, 1));
            } catch (ConfigException e) {
                throw LogModule.orGlobal(new ConfigException("log : " + e.getMessage()));
            }
        });
        keywords.add("maxconn", (f, l) -> f.maxconn = (int) integer(l));
        keywords.add("backlog", (f, l) -> f.backlog = (int) integer(l));
        keywords.add("timeout", (f, l) -> {
            if (!l.arg(1).equals("client")) {
                throw new ConfigException("unknown keyword 'timeout " + l.arg(1) + "' in log-forward section.");
            }
            if (l.arg(2).isEmpty()) {
                throw new ConfigException("missing timeout client value.");
            }
            f.timeoutClient = Units.time(l.arg(2), "timeout client");
        });
        registry.section("log-forward", (header, model) -> open(header, model, keywords));
        registry.check((model, diag) -> {
            for (LogForwardSpec f : LogForwardSpec.of(model).values()) {
                if (f.datagrams.isEmpty() && f.streams.isEmpty()) {
                    diag.configWarning("frontend '" + f.name + "' has no 'bind' directive. Please declare it as a backend if "
                            + "this was intended.");
                }
                Services.of(model).add(new LogForwarder(f, diag));
            }
        });
    }

    /** Where the log-forward section {@code name} is declared, or null when there is none. */
    public static Source declared(ConfigModel model, String name) {
        LogForwardSpec spec = LogForwardSpec.of(model).get(name);
        return spec == null ? null : spec.source;
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<LogForwardSpec> keywords)
            throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing name for ip-forward section."); // sic: HAProxy 2.6's words
        }
        Map<String, LogForwardSpec> sections = LogForwardSpec.of(model);
        LogForwardSpec other = sections.get(name);
        // As HAProxy, a name taken is an alert and the section is parsed all the same (the first one serves).
        if (other != null) {
            header.diag().configAlert("Parsing [" + header.source() + "]: log-forward section '" + name + "' has the same name as "
                    + "another log-forward section declared at " + other.source + ".");
        }
        ProxySpec proxy = ProxyTable.of(model).find(name);
        if (proxy != null) {
            header.diag().configAlert("Parsing [" + header.source() + "]: log forward section '" + name + "' has the same name as "
                    + proxy.describe() + " declared at " + proxy.source() + ".");
        }
        LogForwardSpec spec = new LogForwardSpec(name, header.source());
        sections.putIfAbsent(name, spec);
        return line -> {
            KeywordTable.Entry<LogForwardSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in log-forward section.");
            }
            e.parser().parse(spec, line);
        };
    }

    /** The IP addresses of a {@code bind} or {@code dgram-bind} line, which Fulcrum takes without options. */
    private static List<LogForwardSpec.Address> addresses(ConfigLine l, boolean datagram) throws ConfigException {
        String what = "'" + l.keyword() + " " + l.arg(1) + "' : ";
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'" + l.keyword() + "' expects {<path>|[addr1]:port1[-end1]}{,...} as arguments.");
        }
        if (l.has(2)) {
            throw new ConfigException(what + "option '" + l.arg(2) + "' is not supported on log-forward listeners by Fulcrum yet.");
        }
        String text = l.arg(1);
        if (datagram) {
            text = text.replaceFirst("^udp([46]?)@", "ipv$1@").replace("ipv@", "");
        }
        List<Endpoint> endpoints;
        try {
            endpoints = AddressParser.listeners(text);
        } catch (ConfigException e) {
            throw new ConfigException(what + e.getMessage());
        }
        List<LogForwardSpec.Address> out = new ArrayList<>();
        for (Endpoint e : endpoints) {
            if (!(e instanceof Endpoint.Inet inet)) {
                throw new ConfigException(what + "Fulcrum takes IPv4 or IPv6 addresses only on log-forward listeners.");
            }
            out.add(new LogForwardSpec.Address(inet.socketAddress(), l.source()));
        }
        return out;
    }

    private static long integer(ConfigLine l) throws ConfigException {
        if (l.arg(1).isEmpty()) {
            throw new ConfigException("'" + l.keyword() + "' expects an integer argument.");
        }
        Args.noMoreThan(l, 1, l.keyword());
        return Args.atol(l.arg(1)); // atol: "x" is 0, as HAProxy reads it
    }
}
