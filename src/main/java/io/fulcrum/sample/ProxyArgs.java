package io.fulcrum.sample;

import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The check of the frontend, backend, server and regex arguments of an expression, once every proxy is known, as
 * HAProxy resolves them after parsing: a named proxy must exist with the right capability, a server must exist
 * in its backend, a left-out proxy is the one where the expression is, which must then have the capability, and a
 * regex must be given and compile. At run time the fetches look the names up again; this only reports, with
 * HAProxy's words, what HAProxy refuses.
 */
public final class ProxyArgs {
    private ProxyArgs() {
    }

    /**
     * HAProxy's messages for the arguments of {@code expr}, written in {@code where}, that name nothing usable
     * or hold no usable regex (empty when all are fine).
     *
     * @param acl     the expression is an ACL's criterion
     * @param proxies every proxy, or null to check the regexes only (no proxy is known there)
     * @param context where the expression is, as HAProxy says it: "http-request expression in proxy 'f'"; null
     *                when unknown
     * @param others  what other subsystems say of the arguments they own (userlists...), with {@code proxies}
     */
    static List<String> check(Expr expr, boolean acl, ProxyTable proxies, ProxySpec where, String context,
                              BiFunction<Arg, ProxySpec, String> others) {
        List<String> errors = new ArrayList<>();
        String fetch = (acl ? "ACL keyword '" : "sample fetch keyword '") + expr.fetch().name() + "'";
        String in = context == null ? "" : " in " + context;
        check(expr.args(), fetch + in, proxies, where, others, errors);
        for (Expr.Step s : expr.steps()) {
            check(s.args(), "conversion keyword '" + s.converter().name() + "' for " + fetch + in, proxies, where, others, errors);
        }
        return errors;
    }

    /** The first message about a regex argument of {@code expr}, said without where the expression is, or null. */
    static String firstRegexError(Expr expr) {
        List<String> errors = check(expr, false, null, null, null, null);
        return errors.isEmpty() ? null : errors.get(0);
    }

    private static void check(Arg[] args, String keyword, ProxyTable proxies, ProxySpec where, BiFunction<Arg, ProxySpec, String> others,
                              List<String> errors) {
        for (int i = 0; i < args.length; i++) {
            String ref = "arg " + (i + 1) + " of " + keyword;
            String name = args[i].text();
            if (args[i].type() == ArgType.REG) {
                regex(args[i], ref, errors);
            } else if (proxies != null) {
                switch (args[i].type()) {
                    case FE -> proxy(name, true, ref, proxies, where, errors);
                    case BE -> proxy(name, false, ref, proxies, where, errors);
                    case SRV -> server(name, ref, proxies, where, errors);
                    default -> {
                        String error = others.apply(args[i], where);
                        if (error != null) {
                            errors.add(error + " referenced in " + ref + ".");
                        }
                    }
                }
            }
        }
    }

    private static void regex(Arg a, String ref, List<String> errors) {
        if (a.text().isEmpty()) {
            errors.add("missing regex in " + ref + ".");
        } else if (a.value() instanceof InvalidRegex bad) {
            errors.add("error in regex '" + a.text() + "' in " + ref + " : " + bad.reason() + ".");
        }
    }

    private static void proxy(String name, boolean frontend, String ref, ProxyTable proxies, ProxySpec where, List<String> errors) {
        String what = frontend ? "frontend" : "backend";
        if (name.isEmpty()) {
            if (!capable(where, frontend)) {
                errors.add("proxy '" + where.name() + "', referenced in " + ref + ", has not " + what + " capability.");
            }
        } else if ((frontend ? proxies.frontend(name) : proxies.backend(name)) == null) {
            errors.add("unable to find " + what + " '" + name + "' referenced in " + ref + ".");
        }
    }

    private static void server(String name, String ref, ProxyTable proxies, ProxySpec where, List<String> errors) {
        if (name.isEmpty()) {
            errors.add("missing server name in " + ref + ".");
            return;
        }
        int slash = name.indexOf('/');
        ProxySpec backend = where;
        if (slash >= 0) {
            backend = proxies.backend(name.substring(0, slash));
            if (backend == null) {
                errors.add("unable to find proxy '" + name.substring(0, slash) + "' referenced in " + ref + ".");
                return;
            }
        }
        String server = name.substring(slash + 1);
        ServerList list = backend.partOrNull(ServerList.class);
        ServerSpec named = list == null ? null : list.named(server);
        if (named == null) {
            errors.add("unable to find server '" + server + "' in proxy '" + backend.name() + "', referenced in " + ref + ".");
        } else {
            named.referenced = true; // (del server refuses it)
        }
    }

    private static boolean capable(ProxySpec p, boolean frontend) {
        return p != null && (frontend ? p.kind().isFrontend() : p.kind().isBackend());
    }
}
