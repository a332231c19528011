package io.fulcrum.mailers;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cfg.Units;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.server.ServerSpec;

/**
 * {@code mailers <name>} sections (configuration.txt 3.6): {@code mailer <name> <ip>:<port>} and {@code timeout mail},
 * with HAProxy 2.6's messages. HAProxy ignores words after a mailer's address: Fulcrum refuses them.
 */
final class MailersSection {
    static final TableKey<MailersSpec> KEYWORDS = new TableKey<>("mailers");

    private MailersSection() {
    }

    static void register(Registry registry, MailersConfig config) {
        KeywordTable<MailersSpec> keywords = registry.table(KEYWORDS);
        keywords.add("mailer", MailersSection::mailer);
        keywords.add("timeout", MailersSection::timeout);
        registry.section("mailers", (header, model) -> open(header, model, keywords, config));
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<MailersSpec> keywords, MailersConfig config)
            throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing name for mailers section.");
        }
        MailersSpec previous = config.sections.get(name);
        if (previous != null) {
            throw ConfigException.unspaced("mailers section '" + name + "' has the same name as another mailers section declared at "
                    + previous.source.file() + ":" + previous.source.line() + ".");
        }
        MailersSpec spec = new MailersSpec(name, header.source());
        config.sections.put(name, spec);
        return line -> {
            KeywordTable.Entry<MailersSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'mailers' section");
            }
            e.parser().parse(spec, line);
        };
    }

    /** {@code mailer <name> <ip>:<port>}: an IPv4 or IPv6 address with its port, reached over TCP. */
    private static void mailer(MailersSpec m, ConfigLine l) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("'mailer' expects <name> and <addr>[:<port>] as arguments.");
        }
        Args.noMoreThan(l, 2, "mailer");
        String name = l.arg(1);
        String text = l.arg(2);
        String where = "'mailer " + name + "' : ";
        String hostPort = text.substring(text.indexOf('@') + 1);
        int colon = hostPort.lastIndexOf(':');
        boolean inet = !text.contains("@") || text.startsWith("ipv4@") || text.startsWith("ipv6@");
        if (inet && (colon < 0 || hostPort.endsWith("]") || hostPort.indexOf(':') != colon && !hostPort.startsWith("["))) {
            throw new ConfigException(where + "missing port specification in '" + text + "'");
        }
        ServerSpec s;
        try {
            s = ServerSpec.fixedAddress(name, text);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage());
        }
        if (!(s.endpoint instanceof Endpoint.Inet address)) {
            throw new ConfigException(where + "TCP not supported for this address family.");
        }
        m.mailers.add(new MailersSpec.Mailer(name, address.socketAddress()));
    }

    /** {@code timeout mail <time>}. */
    private static void timeout(MailersSpec m, ConfigLine l) throws ConfigException {
        if (!l.has(1)) {
            throw new ConfigException("'timeout' expects 'mail' and <time> as arguments.");
        }
        if (!l.arg(1).equals("mail")) {
            throw new ConfigException("'timeout' expects 'mail' and <time> as arguments got '" + l.arg(1) + "'.");
        }
        if (!l.has(2)) {
            throw new ConfigException("'timeout mail' expects <time> as argument.");
        }
        Args.noMoreThan(l, 2, "timeout mail");
        m.timeoutMs = Units.timeArgument(l.arg(2), "timeout mail");
    }
}
