package io.fulcrum.sample;

import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.server.ServerList;

import java.util.ArrayList;
import java.util.List;

/**
 * The check of the frontend, backend and server arguments of an expression, once every proxy is known, as
 * HAProxy resolves them after parsing: a named proxy must exist with the right capability, a server must exist
 * in its backend, and a left-out proxy is the one where the expression is, which must then have the capability.
 * At run time the fetches look the names up again; this only reports, with HAProxy's words, what HAProxy refuses.
 */
public final class ProxyArgs {
    private ProxyArgs() {
    }

    /**
     * HAProxy's messages for the arguments of {@code expr}, written in {@code where}, that name nothing usable
     * (empty when all are fine).
     *
     * @param acl     the expression is an ACL's criterion
     * @param context where the expression is, as HAProxy says it: "http-request expression in proxy 'f'"
     */
    static List<String> check(Expr expr, boolean acl, ProxyTable proxies, ProxySpec where, String context) {
        List<String> errors = new ArrayList<>();
        String fetch = (acl ? "ACL keyword '" : "sample fetch keyword '") + expr.fetch().name() + "'";
        check(expr.args(), fetch, proxies, where, context, errors);
        for (Expr.Step s : expr.steps()) {
            check(s.args(), "converter keyword '" + s.converter().name() + "'", proxies, where, context, errors);
        }
        return errors;
    }

    private static void check(Arg[] args, String keyword, ProxyTable proxies, ProxySpec where, String context, List<String> errors) {
        for (int i = 0; i < args.length; i++) {
            String ref = "arg " + (i + 1) + " of " + keyword + " in " + context;
            String name = args[i].text();
            switch (args[i].type()) {
                case FE -> proxy(name, true, ref, proxies, where, errors);
                case BE -> proxy(name, false, ref, proxies, where, errors);
                case SRV -> server(name, ref, proxies, where, errors);
                default -> {
                }
            }
        }
    }

    private static void proxy(String name, boolean frontend, String ref, ProxyTable proxies, ProxySpec where, List<String> errors) {
        String what = frontend ? "frontend" : "backend";
        if (name.isEmpty()) {
            if (!capable(where, frontend)) {
                errors.add("proxy '" + where.name() + "', referenced in " + ref + ", has not " + what + " capability.");
            }
        } else if (!capable(proxies.find(name), frontend)) {
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
            backend = proxies.find(name.substring(0, slash));
            if (!capable(backend, false)) {
                errors.add("unable to find proxy '" + name.substring(0, slash) + "' referenced in " + ref + ".");
                return;
            }
        }
        String server = name.substring(slash + 1);
        ServerList list = backend.partOrNull(ServerList.class);
        if (list == null || list.servers.stream().map(s -> s.name).noneMatch(server::equals)) {
            errors.add("unable to find server '" + server + "' in proxy '" + backend.name() + "', referenced in " + ref + ".");
        }
    }

    private static boolean capable(ProxySpec p, boolean frontend) {
        return p != null && (frontend ? p.kind().isFrontend() : p.kind().isBackend());
    }
}
