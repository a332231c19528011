package io.fulcrum.persist;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Args;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.log.LogFormat;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ModeWarnings;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.proxy.RuleOrder;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.Stage;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;

import java.util.List;

/**
 * Persistence: the {@code cookie} keyword with its modes and attributes, {@code dynamic-cookie-key},
 * {@code option persist}, {@code force-persist}, {@code ignore-persist}, {@code persist rdp-cookie} and the
 * {@code req.rdp_cookie} fetches (the server's {@code cookie} value is read with the other server options).
 */
public final class PersistModule implements Module {

    @Override
    public void register(Registry registry) {
        RdpCookie.register(SampleCatalog.of(registry));
        PersistCommands.register(CliCommands.of(registry));
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        keywords.add("persist", Capability.BE, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("missing persist method.");
            }
            String m = l.arg(1);
            if (!m.startsWith("rdp-cookie")) {
                throw new ConfigException("unknown persist method.");
            }
            String name = "msts";
            if (m.length() > 10 && m.charAt(10) == '(') {
                int end = m.indexOf(')', 11);
                if (end <= 11) {
                    throw new ConfigException("persist rdp-cookie(name)' requires an rdp cookie name.");
                }
                name = m.substring(11, end);
            }
            of(p).rdpCookie = name;
        });
        keywords.add("cookie", Capability.BE, (p, l) -> cookie(of(p), l));
        keywords.add("dynamic-cookie-key", Capability.BE, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'dynamic-cookie-key' expects <secret_key> as argument.");
            }
            of(p).dynamicKey = l.arg(1);
        });
        AclParser acls = AclParser.of(registry);
        for (String kw : new String[] {"force-persist", "ignore-persist"}) {
            keywords.add(kw, Capability.BE, (p, l) -> {
                if (p.kind() == ProxyKind.DEFAULTS) {
                    throw new ConfigException("'" + kw + "' not allowed in 'defaults' section.");
                }
                if (!l.arg(1).equals("if") && !l.arg(1).equals("unless")) {
                    throw new ConfigException("'" + kw + "' requires either 'if' or 'unless' followed by a condition.");
                }
                Condition cond;
                try {
                    cond = acls.condition(l, 1, p.partOrNull(AclTable.class), Stage.BE_REQ_CNT);
                } catch (ConfigException e) {
                    throw new ConfigException("error detected while parsing a '" + kw + "' rule : " + e.getMessage() + ".");
                }
                of(p).rules.add(new PersistSpec.Rule(kw.startsWith("force"), cond));
            });
        }
        LogFormatParser formats = new LogFormatParser(acls.exprs());
        keywords.add("use-server", Capability.BACKEND, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'use-server' expects a server name.");
            }
            if (!l.arg(2).equals("if") && !l.arg(2).equals("unless")) {
                throw new ConfigException("'use-server' requires either 'if' or 'unless' followed by a condition.");
            }
            String name = l.arg(1);
            // A name with '%' is a log-format built for each transaction, as HAProxy reads it.
            LogFormat format = name.indexOf('%') >= 0 ? formats.parse(name, Stage.BE_REQ_CNT, false, false) : null;
            Condition cond;
            try {
                cond = acls.condition(l, 2, p.partOrNull(AclTable.class), Stage.BE_SET_SRV);
            } catch (ConfigException e) {
                throw new ConfigException("error detected while parsing switching rule : " + e.getMessage() + ".");
            }
            of(p).useServers.add(new PersistSpec.UseServer(name, format, cond, l.source()));
            RuleOrder.placed(p, RuleOrder.Kind.USE_SERVER, "use-server", l);
        });
        registry.check(PersistModule::useServerNames);
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        options.add("persist", Capability.BE, (o, l) -> {
            Args.noMoreThan(l, 0, "option persist");
            of(o.proxy()).persistDown = o.enabled();
        });
        ModeWarnings.of(registry).add(ModeWarnings.Step.COOKIE, PersistModule::cookieInTcp);
        ModeWarnings.of(registry).add(ModeWarnings.Step.SERVER_COOKIES, PersistModule::serverCookiesInTcp);
    }

    /** The servers that {@code use-server} rules name outright exist, as HAProxy checks once the sections are read. */
    private static void useServerNames(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            PersistSpec spec = p.partOrNull(PersistSpec.class);
            ServerList list = p.partOrNull(ServerList.class);
            for (PersistSpec.UseServer r : spec == null ? List.<PersistSpec.UseServer>of() : spec.useServers) {
                if (r.format() != null) {
                    continue;
                }
                ServerSpec named = list == null ? null : list.named(r.name());
                if (named == null) {
                    diag.configAlert(p.describe() + " : unable to find server '" + r.name() + "' referenced in a 'use-server' rule.");
                } else {
                    named.referenced = true; // (del server refuses it)
                }
            }
        }
    }

    /** {@code cookie <name> [options]}, with the wording of HAProxy's cfg_parse_listen(). */
    private static void cookie(PersistSpec c, ConfigLine l) throws ConfigException {
        if (!l.has(1) || l.arg(1).isEmpty()) {
            throw new ConfigException("'cookie' expects <cookie_name> as argument.");
        }
        c.resetCookie(l.arg(1));
        for (int i = 2; l.has(i); i++) {
            switch (l.arg(i)) {
                case "rewrite" -> c.rewrite = true;
                case "indirect" -> c.indirect = true;
                case "insert" -> c.insert = true;
                case "nocache" -> c.nocache = true;
                case "postonly" -> c.postonly = true;
                case "preserve" -> c.preserve = true;
                case "prefix" -> c.prefix = true;
                case "httponly" -> c.httponly = true;
                case "secure" -> c.secure = true;
                case "dynamic" -> c.dynamic = true;
                case "domain" -> domain(c, l, ++i);
                case "maxidle" -> c.maxidle = CookieDates.seconds(l, ++i, "idletime");
                case "maxlife" -> c.maxlife = CookieDates.seconds(l, ++i, "lifetime");
                case "attr" -> attr(c, l, ++i);
                default -> throw new ConfigException("'cookie' supports 'rewrite', 'insert', 'prefix', 'indirect', 'nocache', "
                        + "'postonly', 'domain', 'maxidle', 'dynamic', 'maxlife' and 'attr' options.");
            }
        }
        if (c.rewrite && c.indirect) {
            throw new ConfigException("cookie 'rewrite' and 'indirect' modes are incompatible.");
        }
        if ((c.rewrite ? 1 : 0) + (c.insert ? 1 : 0) + (c.prefix ? 1 : 0) > 1) {
            throw new ConfigException("cookie 'rewrite', 'insert' and 'prefix' modes are incompatible.");
        }
        if (c.preserve && !c.insert && !c.indirect) {
            throw new ConfigException("cookie 'preserve' requires at least 'insert' or 'indirect'.");
        }
    }

    private static void domain(PersistSpec c, ConfigLine l, int i) throws ConfigException {
        if (!l.has(i) || l.arg(i).isEmpty()) {
            throw ConfigException.unspaced("'domain' expects <domain> as argument.");
        }
        String d = l.arg(i);
        if (d.indexOf('.') < 0) {
            // RFC 6265 5.2.3: a domain without an embedded dot is ignored by user agents.
            l.warn("domain '" + d + "' contains no embedded dot, this configuration may not work properly (see RFC6265#5.2.3).");
        }
        for (int k = 0; k < d.length(); k++) {
            char ch = d.charAt(k);
            if (ch > 127 || !Character.isLetterOrDigit(ch) && ch != '.' && ch != '-' && ch != '_') {
                throw ConfigException.unspaced("character '" + ch + "' is not permitted in domain name '" + d + "'.");
            }
        }
        c.domain = c.domain == null ? d : c.domain + "; domain=" + d;
    }

    private static void attr(PersistSpec c, ConfigLine l, int i) throws ConfigException {
        if (!l.has(i) || l.arg(i).isEmpty()) {
            throw ConfigException.unspaced("'attr' expects <value> as argument.");
        }
        String v = l.arg(i);
        for (int k = 0; k < v.length(); k++) {
            char ch = v.charAt(k);
            if (ch < 0x20 || ch == 0x7f || ch == ';') {
                throw ConfigException.unspaced("character '%x" + String.format("%02X", (int) ch) + "' is not permitted in attribute value.");
            }
        }
        c.attrs = c.attrs == null ? v : c.attrs + "; " + v;
    }

    /** A TCP backend, where cookies are ignored. */
    private static boolean tcpBackend(ProxySpec p) {
        return p.kind().isBackend() && !p.disabled && p.mode == Mode.TCP;
    }

    /** HAProxy's warning for a cookie in a TCP backend, where it is ignored. */
    private static void cookieInTcp(ProxySpec p, ConfigModel model, Diagnostics diag) {
        PersistSpec c = p.partOrNull(PersistSpec.class);
        if (tcpBackend(p) && c != null && c.name != null) {
            diag.configWarning("cookie will be ignored for " + p.describe() + " (needs 'mode http').");
            c.name = null;
        }
    }

    /** HAProxy's warnings for the servers' cookies in a TCP backend, where they are ignored. */
    private static void serverCookiesInTcp(ProxySpec p, ConfigModel model, Diagnostics diag) {
        ServerList servers = p.partOrNull(ServerList.class);
        if (!tcpBackend(p) || servers == null) {
            return;
        }
        for (ServerSpec s : servers.servers) {
            if (s.cookie != null) {
                diag.configWarning(p.describe() + " : ignoring cookie for server '" + s.name + "' as HTTP mode is disabled.");
                s.cookie = null;
            }
        }
    }

    /** The persistence settings of {@code p}, created when first asked for. */
    public static PersistSpec of(ProxySpec p) {
        return p.part(PersistSpec.class, PersistSpec::new);
    }
}
