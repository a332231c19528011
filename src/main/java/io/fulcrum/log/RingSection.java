package io.fulcrum.log;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.server.ServerModule;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code ring <name>} sections (configuration.txt 3.9): {@code description}, {@code format}, {@code maxlen},
 * {@code size}, {@code timeout connect|server} and {@code server <name> <addr:port> [log-proto legacy|octet-count]},
 * with HAProxy 2.6's messages.
 */
final class RingSection {
    private RingSection() {
    }

    static final TableKey<RingSpec> KEYWORDS = new TableKey<>("ring");

    /** @param declared receives the name of each ring section as it is read (the debug converter names them) */
    static void register(Registry registry, Set<String> declared) {
        KeywordTable<RingSpec> keywords = registry.table(KEYWORDS);
        // As HAProxy, a proxy's server may name its log protocol, which only a ring's servers use: checked, no effect.
        registry.table(ServerModule.OPTIONS).add("log-proto", 1, (s, l) -> octetCount(l.arg(1)));
        keywords.add("description", (r, l) -> {
            if (l.arg(1).isEmpty()) {
                throw new ConfigException("missing ring description text.");
            }
            r.description = l.arg(1);
        });
        keywords.add("format", (r, l) -> {
            SyslogFormat f = SyslogFormat.of(l.arg(1));
            if (f == null) {
                throw new ConfigException("unknown format '" + l.arg(1) + "'.");
            }
            r.format = f;
        });
        keywords.add("maxlen", (r, l) -> r.maxlen = size(l));
        keywords.add("size", (r, l) -> {
            long size = size(l);
            if (r.backingFile != null) {
                throw new ConfigException("cannot resize an already mapped file, please specify 'size' before 'backing-file'.");
            }
            if (size < r.size) {
                throw new ConfigException("ignoring new size '" + size + "' that is smaller than current size '" + r.size
                        + "' for ring '" + r.name + "'.");
            }
            r.size = size;
        });
        keywords.add("backing-file", (r, l) -> {
            Path path = Path.of(l.arg(1));
            RingFile.create(path, r.size, r.name);
            r.backingFile = path;
        });
        keywords.add("timeout", RingSection::timeout);
        keywords.add("server", RingSection::server);
        registry.section("ring", (header, model) -> {
            SectionParser parser = open(header, model, keywords);
            declared.add(header.arg(1));
            return parser;
        });
        registry.check(RingSection::check);
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<RingSpec> keywords) throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing ring name.");
        }
        Map<String, RingSpec> rings = RingSpec.of(model);
        if (rings.containsKey(name) || Sinks.BUILTIN.contains(name)) {
            throw new ConfigException("sink named '" + name + "' already exists.");
        }
        RingSpec ring = new RingSpec(name, name, header.source());
        rings.put(name, ring);
        return line -> {
            KeywordTable.Entry<RingSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown statement '" + line.keyword() + "'.");
            }
            e.parser().parse(ring, line);
        };
    }

    /** HAProxy reads sizes with atol(): a number without unit, and 0 is refused. */
    private static long size(ConfigLine l) throws ConfigException {
        String v = l.arg(1);
        if (v.isEmpty() || v.length() > 10 || !v.chars().allMatch(Character::isDigit) || Long.parseLong(v) == 0) {
            throw new ConfigException("invalid size '" + v + "' for new sink buffer.");
        }
        return Long.parseLong(v);
    }

    private static void timeout(RingSpec r, ConfigLine l) throws ConfigException {
        String which = l.arg(1);
        if (!which.equals("connect") && !which.equals("server")) {
            // HAProxy ignores them without a word.
            l.warn("'timeout " + which + "' is ignored in ring sections (only 'connect' and 'server' apply).");
            return;
        }
        if (l.arg(2).isEmpty()) {
            throw new ConfigException("'timeout " + which + "' expects <time> as argument.");
        }
        long ms = Units.time(l.arg(2), "timeout " + which);
        if (which.equals("connect")) {
            r.timeoutConnect = ms;
        } else {
            r.timeoutServer = ms;
        }
    }

    /** {@code log-proto legacy|octet-count}: true for octet counting. */
    private static boolean octetCount(String proto) throws ConfigException {
        return switch (proto) {
            case "legacy" -> false;
            case "octet-count" -> true;
            default -> throw new ConfigException("'log-proto' expects one of 'legacy' or 'octet-count' but got '" + proto + "'.");
        };
    }

    private static void server(RingSpec r, ConfigLine l) throws ConfigException {
        if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
            throw new ConfigException("'server' expects <name> and <addr>[:<port>] as arguments.");
        }
        String what = "'server " + r.name + "/" + l.arg(1) + "' : ";
        boolean octetCount = false;
        for (int i = 3; l.has(i); i += 2) {
            if (!l.arg(i).equals("log-proto")) {
                throw new ConfigException(what + "'" + l.arg(i) + "' is not supported in ring sections by Fulcrum yet "
                        + "(it supports 'log-proto').");
            }
            try {
                octetCount = octetCount(l.arg(i + 1));
            } catch (ConfigException e) {
                throw new ConfigException(what + e.getMessage());
            }
        }
        try {
            r.servers.add(new RingSpec.Server(l.arg(1), LogDestination.streamAddress(l.arg(2)), octetCount));
        } catch (ConfigException e) {
            throw new ConfigException(what + e.getMessage());
        }
    }

    /** Every {@code ring@} target names a ring; a ring's messages cannot be longer than the ring. */
    private static void check(ConfigModel model, Diagnostics diag) {
        Map<String, RingSpec> rings = RingSpec.of(model);
        for (LogTarget t : GlobalLog.of(model).targets) {
            if (unknownRing(t, rings)) {
                diag.configAlert("global log server declared in file '" + t.source().file() + "' at line " + t.source().line()
                        + " uses unknown ring named '" + ((LogDestination.Ring) t.destination()).name() + "'.");
            }
        }
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ProxyLog log = p.partOrNull(ProxyLog.class);
            if (log == null || p.kind() == ProxyKind.DEFAULTS) {
                continue;
            }
            for (LogTarget t : log.targets) {
                if (unknownRing(t, rings)) {
                    diag.configAlert("log server declared in proxy section '" + p.name() + "' in file '" + t.source().file()
                            + "' at line " + t.source().line() + " uses unknown ring named '"
                            + ((LogDestination.Ring) t.destination()).name() + "'.");
                }
            }
        }
        for (RingSpec r : rings.values()) {
            if (r.maxlen > r.storage()) {
                diag.configWarning("ring '" + r.name + "' event max length '" + r.maxlen + "' exceeds size, forced to size '"
                        + r.storage() + "'.");
                r.maxlen = r.storage();
            }
        }
    }

    private static boolean unknownRing(LogTarget t, Map<String, RingSpec> rings) {
        return t.destination() instanceof LogDestination.Ring r && !rings.containsKey(r.name());
    }
}
