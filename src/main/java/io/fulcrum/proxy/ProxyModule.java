package io.fulcrum.proxy;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.HaproxyKeywords;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.log.LogFormat;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.log.LogForwardSection;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cfg.Source;
import io.fulcrum.cfg.Units;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.SampleCatalog;

/**
 * The proxy sections ({@code defaults}, {@code frontend}, {@code backend}, {@code listen}), the keywords
 * every proxy has (mode, maxconn, timeouts, backend switching) and the {@code option} and
 * {@code timeout} dispatchers that other subsystems add to.
 */
public final class ProxyModule implements Module {

    /** Proxy keywords; flags are {@link Capability} bits. */
    public static final TableKey<ProxySpec> KEYWORDS = new TableKey<>("proxy");
    /** {@code option NAME} and {@code no option NAME}; flags are {@link Capability} bits. */
    public static final TableKey<OptionContext> OPTIONS = new TableKey<>("option", "option ");
    /** {@code timeout NAME VALUE}; flags are {@link Capability} bits. */
    public static final TableKey<ProxySpec> TIMEOUTS = new TableKey<>("timeout", "timeout ");

    @Override
    public void register(Registry registry) {
        FrontendFetches.register(SampleCatalog.of(registry));
        FrontendCommands.register(CliCommands.of(registry));
        KeywordTable<ProxySpec> keywords = registry.table(KEYWORDS);
        KeywordTable<OptionContext> options = registry.table(OPTIONS);
        KeywordTable<ProxySpec> timeouts = registry.table(TIMEOUTS);
        for (ProxyKind kind : ProxyKind.values()) {
            registry.section(kind.keyword(), (header, model) -> open(kind, header, model, keywords, options));
        }

        keywords.add("mode", Capability.ALL, (p, l) -> {
            Args.noMoreThan(l, 1, "mode");
            switch (l.arg(1)) {
                case "tcp" -> p.mode = Mode.TCP;
                case "http" -> p.mode = Mode.HTTP;
                case "health" -> throw new ConfigException("'mode health' doesn't exist anymore. Please use 'http-request return status 200' instead.");
                default -> throw new ConfigException("unknown proxy mode '" + l.arg(1) + "'.");
            }
        });
        keywords.add("maxconn", Capability.FE, (p, l) -> {
            Args.noMoreThan(l, 1, "maxconn");
            p.maxconn = (int) Units.integer(Args.required(l, 1, "maxconn", "an integer argument"), "maxconn", 0, Integer.MAX_VALUE);
        });
        keywords.add("id", Capability.FRONTEND | Capability.BACKEND, (p, l) -> {
            if (!l.has(1)) {
                throw ConfigException.unspaced("'id' expects an integer argument.");
            }
            String v = l.arg(1);
            // HAProxy's atol, stored in an int: a word is 0, a larger number keeps its low 32 bits
            int id = v.matches("-?[0-9]{1,18}") ? (int) Long.parseLong(v) : 0;
            if (id <= 0) {
                throw ConfigException.unspaced("custom id has to be > 0.");
            }
            p.customId = id;
            p.customIdSource = l.source();
        });
        keywords.add("description", Capability.FRONTEND | Capability.BACKEND, (p, l) -> {
            if (!l.has(1)) {
                throw ConfigException.unspaced("'description' expects a string argument.");
            }
            p.description = l.join(1);
        });
        keywords.add("default_backend", Capability.FE, (p, l) -> {
            Args.noMoreThan(l, 1, "default_backend");
            p.defaultBackend = new BackendRef(Args.required(l, 1, "default_backend", "a backend name"), l.source());
        });
        AclParser acls = AclParser.of(registry);
        LogFormatParser formats = new LogFormatParser(acls.exprs());
        keywords.add("use_backend", Capability.FRONTEND | Capability.STRICT, (p, l) -> {
            String name = Args.required(l, 1, "use_backend", "a backend name");
            // A name with a sample is built for each transaction; one that names no backend falls back to the default.
            LogFormat dynamic = name.contains("%[") ? formats.parse(name, Stage.FE_SET_BCK, false, false) : null;
            if (l.has(2) && !l.arg(2).equals("if") && !l.arg(2).equals("unless")) {
                throw new ConfigException("unexpected keyword '" + l.arg(2) + "' after switching rule, only 'if' and 'unless' are allowed.");
            }
            Condition cond;
            try {
                cond = acls.condition(l, 2, p.partOrNull(AclTable.class), Stage.FE_SET_BCK);
            } catch (ConfigException e) {
                throw new ConfigException("error detected while parsing switching rule : " + e.getMessage() + ".");
            }
            p.useBackends.add(new BackendRef(name, l.source(), cond, dynamic));
            RuleOrder.placed(p, RuleOrder.Kind.USE_BACKEND, "use_backend", l);
        });
        keywords.add("disabled", Capability.ALL, (p, l) -> {
            Args.noMoreThan(l, 0, "disabled");
            p.disabled = true;
        });
        keywords.add("enabled", Capability.ALL, (p, l) -> {
            Args.noMoreThan(l, 0, "enabled");
            p.disabled = false;
        });
        keywords.add("timeout", Capability.ALL, (p, l) -> {
            KeywordTable.Entry<ProxySpec> e = timeouts.find(l.arg(1));
            if (e == null) {
                if (HaproxyKeywords.knows("timeout", l.arg(1))) {
                    throw timeouts.unknown(l.arg(1), "");
                }
                throw new ConfigException("'timeout' supports 'client', 'server', 'connect', 'check', 'queue', 'http-keep-alive', "
                        + "'http-request', 'tunnel', 'tarpit', 'client-fin' and 'server-fin' (got '" + l.arg(1) + "')");
            }
            if (!p.kind().accepts(e.flags())) {
                throw ConfigException.warning("'timeout " + l.arg(1) + "' will be ignored because " + p.describe() + " has no "
                        + missing(p.kind()) + " capability");
            }
            e.parser().parse(p, l.shift(1));
        });
        keywords.add("option", Capability.ALL, (p, l) -> option(options, new OptionContext(p, true), l));

        timeout(timeouts, "connect", Capability.BE, (t, v) -> t.connect = v);
        timeout(timeouts, "client", Capability.FE, (t, v) -> t.client = v);
        timeout(timeouts, "server", Capability.BE, (t, v) -> t.server = v);
        timeout(timeouts, "tunnel", Capability.BE, (t, v) -> t.tunnel = v);
        timeout(timeouts, "client-fin", Capability.FE, (t, v) -> t.clientFin = v);
        timeout(timeouts, "server-fin", Capability.BE, (t, v) -> t.serverFin = v);
        timeout(timeouts, "queue", Capability.BE, (t, v) -> t.queue = v);
        timeout(timeouts, "http-request", Capability.ALL, (t, v) -> t.httpRequest = v);
        timeout(timeouts, "http-keep-alive", Capability.ALL, (t, v) -> t.httpKeepAlive = v);
        timeout(timeouts, "tarpit", Capability.ALL, (t, v) -> t.tarpit = v);
        options.add("independent-streams", Capability.ALL, (o, l) -> {
            Args.noMoreThan(l, 0, "option independent-streams");
            o.proxy().timeouts.independentStreams = o.enabled();
        });

        registry.check((model, diag) -> ProxyTable.of(model).number(diag));
        registry.check(ProxyModule::checkReferences);
    }

    private interface TimeoutSetter {
        void set(Timeouts t, long millis);
    }

    private static void timeout(KeywordTable<ProxySpec> table, String name, int caps, TimeoutSetter setter) {
        table.add(name, caps, (p, l) -> {
            String kw = "timeout " + name;
            if (!l.has(1)) {
                throw new ConfigException("'" + kw + "' expects an integer value (in milliseconds)");
            }
            Args.noMoreThan(l, 1, kw);
            setter.set(p.timeouts, Units.time(l.arg(1), kw));
        });
    }


    private static String missing(ProxyKind kind) {
        return kind.isFrontend() ? "backend" : "frontend";
    }

    private static void option(KeywordTable<OptionContext> options, OptionContext ctx, ConfigLine l) throws ConfigException {
        String name = l.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("'option' expects an option name.");
        }
        KeywordTable.Entry<OptionContext> e = options.find(name);
        if (e == null) {
            throw options.unknown(name, "unknown option '" + name + "'.");
        }
        if (!ctx.enabled() && (e.flags() & Capability.NO_NEGATION) != 0) {
            throw ConfigException.unspaced("negation/default is not supported for option '" + name + "'.");
        }
        ProxySpec p = ctx.proxy();
        if (!p.kind().accepts(e.flags())) {
            throw ConfigException.warning("'" + name + "' ignored because " + p.describe() + " has no " + missing(p.kind()) + " capability.");
        }
        e.parser().parse(ctx, l.shift(1));
    }

    private static SectionParser open(ProxyKind kind, ConfigLine header, ConfigModel model,
                                      KeywordTable<ProxySpec> keywords, KeywordTable<OptionContext> options) throws ConfigException {
        ProxyTable table = ProxyTable.of(model);
        String name = header.arg(1);
        int next = 2;
        if (kind == ProxyKind.DEFAULTS && name.equals("from")) {
            name = "";
            next = 1;
        } else if (kind == ProxyKind.DEFAULTS && name.isEmpty()) {
            next = 1;
        } else {
            if (name.isEmpty()) {
                throw new ConfigException("'" + kind.keyword() + "' expects an <id> argument");
            }
            checkName(kind, name);
        }
        String from = null;
        if (header.has(next)) {
            Args.noMoreThan(header, next + 1, kind.keyword());
            if (!header.arg(next).equals("from") || header.arg(next + 1).isEmpty()) {
                return refusedHeader(kind, name, header, next);
            }
            from = header.arg(next + 1);
        }
        // A defaults section starts afresh unless it names another with 'from', as in HAProxy 2.6.
        ProxySpec inherited = kind == ProxyKind.DEFAULTS && from == null ? null
                : table.defaultsFor(from, kind.keyword() + " '" + name + "'");
        ProxySpec spec = new ProxySpec(name, kind, header.source(), inherited);
        if (kind == ProxyKind.DEFAULTS) {
            table.addDefaults(spec);
        } else {
            table.add(spec, header);
            Source logForward = LogForwardSection.declared(model, name);
            if (logForward != null && header.diag() != null) {
                header.diag().configAlert("Parsing [" + header.source() + "]: " + kind.typeName() + " '" + name
                        + "' has the same name as log forward section '" + name + "' declared at " + logForward + ".");
            }
        }
        if (inherited != null && inherited.use(from != null)) {
            header.alertNotCounted("defaults section '" + inherited.name() + "' (declared at " + inherited.source() + ") is explicitly "
                    + "referenced by another proxy and implicitly used here. To avoid any ambiguity don't mix both usage. Add a last "
                    + "defaults section not explicitly used or always use explicit references.");
        }
        if (inherited != null && inherited.lendRules(kind)) { // (after the section is known: its users then see no second error)
            spec.rulesFrom = inherited;
        }
        return line -> dispatch(spec, line, keywords, options);
    }

    /**
     * A proxy header with an address or without the defaults section's name after 'from' (HAProxy 1.x's
     * {@code listen name addr:port}): HAProxy creates no proxy, and each line of the body is an error of its own.
     * A backend's header has HAProxy's silence replaced by a message.
     */
    private static SectionParser refusedHeader(ProxyKind kind, String name, ConfigLine header, int next) {
        String message = kind.isFrontend() ? "please use the 'bind' keyword for listening addresses."
                : "'" + kind.keyword() + " " + name + "' expects 'from' and a defaults section name, got '" + header.arg(next) + "'.";
        if (header.diag() != null) {
            header.diag().report(header, new ConfigException(message));
        }
        return line -> {
            throw new ConfigException("'listen' or 'defaults' expected.");
        };
    }

    private static void dispatch(ProxySpec spec, ConfigLine line, KeywordTable<ProxySpec> keywords,
                                 KeywordTable<OptionContext> options) throws ConfigException {
        String kw = line.keyword();
        if (kw.equals("no") && line.arg(1).equals("option")) {
            option(options, new OptionContext(spec, false), line.shift(1));
            return;
        }
        KeywordTable.Entry<ProxySpec> e = keywords.find(kw);
        if (kw.equals("no")) {
            e = keywords.find(line.arg(1));
            if (e == null || (e.flags() & Capability.NEGATABLE) == 0) {
                throw new ConfigException("negation/default currently supported only for options and log.");
            }
            kw = line.arg(1);
        }
        if (e == null) {
            throw keywords.unknown(kw, "unknown keyword '" + kw + "' in '" + spec.kind().keyword() + "' section");
        }
        boolean namedDefaults = spec.kind() == ProxyKind.DEFAULTS && (e.flags() & Capability.NAMED_DEFAULTS) != 0;
        if (namedDefaults && spec.name().isEmpty()) {
            throw new ConfigException("'" + kw + "' not allowed in anonymous 'defaults' section.");
        }
        if (!namedDefaults && !spec.kind().accepts(e.flags())) {
            String why = " because " + spec.describe() + " has no " + missing(spec.kind()) + " capability.";
            if ((e.flags() & Capability.STRICT) != 0 && spec.kind() == ProxyKind.DEFAULTS) {
                throw new ConfigException("'" + kw + "' not allowed in 'defaults' section.");
            }
            if ((e.flags() & Capability.STRICT) != 0) {
                throw new ConfigException("'" + kw + "' not allowed" + why);
            }
            if ((e.flags() & Capability.PARSED_WHEN_IGNORED) != 0) {
                e.parser().parse(spec, line);
            }
            throw ConfigException.warning("'" + kw + "' ignored" + why);
        }
        e.parser().parse(spec, line);
    }

    private static void checkName(ProxyKind kind, String name) throws ConfigException {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.' || c == ':')) {
                throw new ConfigException("character '" + c + "' is not permitted in '" + kind.keyword() + "' name '" + name + "'.");
            }
        }
    }

    private static void checkReferences(ConfigModel model, Diagnostics diag) {
        ProxyTable table = ProxyTable.of(model);
        for (ProxySpec p : table.proxies()) {
            if (!p.kind().isFrontend()) {
                continue;
            }
            if (p.defaultBackend != null) {
                checkReference(table, p, p.defaultBackend, "default_backend", "as its default backend", diag);
            }
            for (BackendRef ref : p.useBackends.stream().filter(r -> r.dynamic() == null).toList()) {
                checkReference(table, p, ref, "use_backend", "in a 'use_backend' rule", diag);
            }
        }
    }

    private static void checkReference(ProxyTable table, ProxySpec fe, BackendRef ref, String keyword, String role, Diagnostics diag) {
        ProxySpec be = table.backend(ref.name());
        if (be == null) {
            diag.parseAlert(ref.source(), "Proxy '" + fe.name() + "': unable to find required " + keyword + ": '" + ref.name() + "'.");
        } else if (fe.mode == Mode.HTTP && be.mode == Mode.TCP) {
            diag.parseAlert(ref.source(), "http " + fe.describe() + " (" + fe.source() + ") tries to use incompatible tcp "
                    + be.describe() + " (" + be.source() + ") " + role + " (see 'mode').");
        }
    }
}
