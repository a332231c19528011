package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expressions whose arguments name a frontend, a backend or a server, or are regexes, noted where they are
 * written and checked once every proxy is known, as HAProxy resolves them after parsing: each proxy's unresolved
 * arguments are reported together, with HAProxy's words, and fail the load. A proxy running the rules of a defaults
 * section has that section's reported first (once, in the section's name); a defaults section no proxy takes rules
 * from is not checked. Expressions written outside proxies (the global section) or typed on the CLI are resolved at
 * once, in HAProxy's pseudo-proxies 'CFG' and 'CLI'.
 */
public final class ArgResolution {
    /** Receives each expression parsed; may refuse it at once. */
    @FunctionalInterface
    public interface Sink {
        void referenced(Expr expr) throws ConfigException;
    }

    /**
     * An expression refused at once, in HAProxy's words whole ("parsing [CLI:0]: error in regex ..."): those who
     * parse it pass the message on as it is.
     */
    public static final class Unresolved extends ConfigException {
        Unresolved(String message) {
            super(message);
        }
    }

    /**
     * Resolves the arguments of a type another subsystem owns (a userlist, a table...), written in {@code where}:
     * HAProxy's words for a name that resolves to nothing ("unable to find userlist 'x'"), or null.
     */
    @FunctionalInterface
    public interface Resolver {
        String unresolved(String name, ProxySpec where, ConfigModel model);
    }

    private static final Set<String> PROXY_SECTIONS = Set.of("defaults", "frontend", "backend", "listen");
    private static final ProxySpec CLI = new ProxySpec("CLI", ProxyKind.DEFAULTS, null);

    /**
     * @param acl     the expression is an ACL's criterion ("ACL keyword" in the messages)
     * @param context where the expression is, as HAProxy says it ("http-request expression"); null for an ACL
     */
    private record Ref(Expr expr, boolean acl, String context, Source line, Source section) {
    }

    private final Registry registry;
    private final Map<ArgType, Resolver> resolvers = new EnumMap<>(ArgType.class);
    private final List<Ref> refs = new ArrayList<>();
    private Source line;
    private Source section;
    private String context;
    private boolean resolved;
    /** Once the configuration is checked: it and its proxies, for the expressions of the CLI. */
    private ConfigModel model;
    private ProxyTable proxies;

    private ArgResolution(Registry registry) {
        this.registry = registry;
    }

    /** The registry's resolution, which checks its expressions after every other configuration check. */
    public static ArgResolution of(Registry registry) {
        return registry.component(ArgResolution.class, () -> {
            ArgResolution r = new ArgResolution(registry);
            registry.checkLast(r::check);
            return r;
        });
    }

    /** Has the arguments of {@code type} resolved by {@code resolver}, reported with the others. */
    public void resolver(ArgType type, Resolver resolver) {
        resolvers.put(type, resolver);
    }

    /** The sink of ACL criteria ({@code acl} is true) or of other expressions. */
    public Sink sink(boolean acl) {
        return e -> note(e, acl);
    }

    /**
     * Locates the expressions parsed from now on, for those compiled after their section is read (log formats),
     * until {@link #unlocate()}.
     */
    public void locate(Source line, ProxySpec proxy, String context) {
        this.line = line;
        this.section = proxy.source();
        this.context = context;
    }

    public void unlocate() {
        line = null;
        section = null;
        context = null;
    }

    private void note(Expr e, boolean acl) throws ConfigException {
        if (!unresolved(e)) {
            return;
        }
        if (resolved) { // typed on the CLI after the load
            refuse(ProxyArgs.check(e, acl, proxies, CLI, where(acl, "CLI expression", CLI.name()), (a, w) -> otherError(a, w)), "CLI:0");
            return;
        }
        if (line != null) {
            refs.add(new Ref(e, acl, context, line, section));
            return;
        }
        ConfigLine l = registry.parsingLine();
        if (l != null && PROXY_SECTIONS.contains(registry.parsingSectionKeyword())) {
            refs.add(new Ref(e, acl, context(l), l.source(), registry.parsingSection()));
            return;
        }
        // Outside proxies (the global section's set-var): at once, the regexes only (no proxy is known yet), once the
        // fetch is known usable there (else its keyword refuses it, as HAProxy's before it resolves anything).
        if ((e.stages() & Stage.CFG_PARSER.bit()) == 0) {
            return;
        }
        refuse(ProxyArgs.check(e, acl, null, null, where(acl, "configuration expression", "CFG"), null), l == null ? "CFG" : l.source().toString());
    }

    private static String where(boolean acl, String context, String proxy) {
        return acl ? "proxy '" + proxy + "'" : context + " in proxy '" + proxy + "'";
    }

    /** Refuses an expression resolved at once with its errors, as HAProxy's CLI prints them: several ones indented. */
    private static void refuse(List<String> errors, String at) throws Unresolved {
        if (errors.size() == 1) {
            throw new Unresolved("parsing [" + at + "]: " + errors.get(0));
        }
        if (!errors.isEmpty()) {
            StringBuilder b = new StringBuilder();
            for (String error : errors) {
                b.append("\n  parsing [").append(at).append("]: ").append(error);
            }
            throw new Unresolved(b.toString());
        }
    }

    /** What another subsystem says of the argument {@code a} written in {@code where}: HAProxy's words when it resolves to nothing, or null. */
    private String otherError(Arg a, ProxySpec where) {
        Resolver r = resolvers.get(a.type());
        return r == null ? null : r.unresolved(a.text(), where, model);
    }

    /** Whether {@code e} has arguments to resolve: proxies, servers, regexes or another subsystem's. */
    private boolean unresolved(Expr e) {
        if (unresolved(e.args())) {
            return true;
        }
        for (Expr.Step s : e.steps()) {
            if (unresolved(s.args())) {
                return true;
            }
        }
        return false;
    }

    private boolean unresolved(Arg[] args) {
        for (Arg a : args) {
            if (a.type() == ArgType.FE || a.type() == ArgType.BE || a.type() == ArgType.SRV || a.type() == ArgType.REG
                    || resolvers.containsKey(a.type())) {
                return true;
            }
        }
        return false;
    }

    /** HAProxy's name for where an expression of {@code l} is. */
    static String context(ConfigLine l) {
        return switch (l.keyword()) {
            case "http-response", "http-after-response" -> "http-response response";
            case "tcp-request", "tcp-response" -> l.keyword() + " " + l.arg(1) + " expression";
            case "stick" -> "stick rule";
            case "balance", "use-server" -> "use-server or balance expression";
            case "log-format", "error-log-format" -> "log-format string";
            case "unique-id-format" -> "unique-id-format string";
            case "http-check", "tcp-check", "server", "default-server" -> "server directive";
            default -> l.keyword() + " expression";
        };
    }

    private void check(ConfigModel model, Diagnostics diag) {
        resolved = true;
        this.model = model;
        proxies = ProxyTable.of(model);
        Set<ProxySpec> defaults = new HashSet<>();
        for (ProxySpec p : proxies.proxies()) {
            if (p.rulesFrom() != null && defaults.add(p.rulesFrom())) {
                report(p.rulesFrom(), diag);
            }
            report(p, diag);
        }
        refs.clear();
    }

    /** The errors of the expressions written in {@code p}'s section, together. */
    private void report(ProxySpec p, Diagnostics diag) {
        List<String> errors = new ArrayList<>();
        for (Ref r : refs) {
            if (r.section().equals(p.source())) {
                for (String e : ProxyArgs.check(r.expr(), r.acl(), proxies, p, where(r.acl(), r.context(), p.name()), (a, w) -> otherError(a, w))) {
                    errors.add("parsing [" + r.line() + "]: " + e);
                }
            }
        }
        if (errors.size() == 1) {
            diag.configAlert(errors.get(0));
        } else if (!errors.isEmpty()) {
            diag.configAlert("multiple argument resolution errors:\n        " + String.join("\n        ", errors));
        }
    }
}
