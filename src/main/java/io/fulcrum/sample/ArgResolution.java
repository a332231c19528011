package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The expressions whose arguments name a frontend, a backend or a server, noted where they are written and
 * checked once every proxy is known, as HAProxy resolves them after parsing: each proxy's unresolved arguments
 * are reported together, with HAProxy's words, and fail the load.
 */
public final class ArgResolution {
    /** Receives each expression parsed with proxy or server arguments. */
    @FunctionalInterface
    public interface Sink {
        void referenced(Expr expr);
    }

    /**
     * @param acl     the expression is an ACL's criterion ("ACL keyword" in the messages)
     * @param context where the expression is, as HAProxy says it ("http-request expression"); null for an ACL
     */
    private record Ref(Expr expr, boolean acl, String context, Source line, Source section) {
    }

    private final Registry registry;
    private final List<Ref> refs = new ArrayList<>();
    private Source line;
    private Source section;
    private String context;
    private boolean resolved;

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

    private void note(Expr e, boolean acl) {
        if (resolved || !refersToProxies(e)) {
            return; // expressions typed on the CLI after the load are not configuration
        }
        if (line != null) {
            refs.add(new Ref(e, acl, context, line, section));
            return;
        }
        ConfigLine l = registry.parsingLine();
        if (l != null && registry.parsingSection() != null) {
            refs.add(new Ref(e, acl, context(l), l.source(), registry.parsingSection()));
        }
    }

    private static boolean refersToProxies(Expr e) {
        if (proxyArg(e.args())) {
            return true;
        }
        for (Expr.Step s : e.steps()) {
            if (proxyArg(s.args())) {
                return true;
            }
        }
        return false;
    }

    private static boolean proxyArg(Arg[] args) {
        for (Arg a : args) {
            if (a.type() == ArgType.FE || a.type() == ArgType.BE || a.type() == ArgType.SRV) {
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
            case "http-check", "tcp-check" -> "server directive";
            default -> l.keyword() + " expression";
        };
    }

    private void check(ConfigModel model, Diagnostics diag) {
        resolved = true;
        ProxyTable proxies = ProxyTable.of(model);
        for (ProxySpec p : proxies.proxies()) {
            List<String> errors = new ArrayList<>();
            for (Ref r : refs) {
                if (r.section().equals(p.source())) {
                    String where = r.acl() ? "proxy '" + p.name() + "'" : r.context() + " in proxy '" + p.name() + "'";
                    for (String e : ProxyArgs.check(r.expr(), r.acl(), proxies, p, where)) {
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
        refs.clear();
    }
}
