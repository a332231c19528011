package io.fulcrum.resolvers;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalModule.GlobalContext;
import io.fulcrum.runtime.Services;
import io.fulcrum.server.ServerList;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;
import io.fulcrum.server.SetServer;

/**
 * DNS resolution of servers at run time (configuration.txt 5.3): the {@code resolvers} sections, the server options that
 * use them, the resolutions, and {@code show resolvers}.
 */
public final class ResolversModule implements Module {

    @Override
    public void register(Registry registry) {
        ResolversConfig config = ResolversConfig.of(registry);
        ResolversSection.register(registry, config);
        ServerResolve.register(registry.table(ServerModule.OPTIONS));
        ShowResolvers.register(CliCommands.of(registry), config);
        FqdnChange.register(SetServer.of(registry), config);
        DoResolve.register(HttpActions.of(registry), TcpActions.of(registry), config);
        registry.check((model, diag) -> resolve(model, diag, config));
        // HAProxy's internal HTTP client (Lua, later ACME and OCSP updates): Fulcrum has none; its settings are checked.
        KeywordTable<GlobalContext> global = registry.table(GlobalModule.KEYWORDS);
        global.add("httpclient.resolvers.id", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            config.httpClient = l.arg(1);
        });
        global.add("httpclient.resolvers.prefer", (g, l) -> {
            Args.noMoreThan(l, 1, l.keyword());
            if (!l.arg(1).equals("ipv4") && !l.arg(1).equals("ipv6")) {
                throw Args.ownAlert(l, "'" + l.keyword() + "' expects 'ipv4' or 'ipv6' as argument.");
            }
        });
    }

    /**
     * Adds the "default" section HAProxy makes from /etc/resolv.conf, checks that each server's section exists and that
     * each section has a name server, and prepares the sections to run; their servers join them at start.
     */
    private static void resolve(ConfigModel model, Diagnostics diag, ResolversConfig config) {
        if (!config.sections.containsKey("default")) {
            ResolversSpec d = ResolvConf.defaultSection();
            if (d != null) {
                config.sections.put(d.name, d);
            }
        }
        for (ResolversSpec spec : config.sections.values()) {
            if (spec.nameservers.isEmpty()) {
                diag.configWarning("resolvers '" + spec.name + "' [" + spec.source.file() + ":" + spec.source.line()
                        + "] has no nameservers configured!");
                continue;
            }
            ResolversRuntime r = new ResolversRuntime(spec);
            config.running.add(r);
            Services.of(model).add(r);
        }
        if (config.httpClient != null && !config.sections.containsKey(config.httpClient)) {
            // The client's resolution is a do-resolve rule of its own proxy: HAProxy reports it as such.
            diag.configAlert("Proxy '<HTTPCLIENT>': Can't find resolvers section '" + config.httpClient + "' for do-resolve action.");
        }
        for (DoResolve.Ref ref : config.doResolve) {
            ref.runtime = config.running.stream().filter(r -> r.spec.name.equals(ref.section)).findFirst().orElse(null);
            if (ref.runtime != null) {
                ref.runtime.usedByRules();
            }
            if (!config.sections.containsKey(ref.section)) {
                diag.configAlert("Proxy '" + ref.proxy + "': Can't find resolvers section '" + ref.section + "' for do-resolve action.");
            }
        }
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ServerList list = p.partOrNull(ServerList.class);
            if (list == null || p.disabled) {
                continue;
            }
            for (ServerSpec s : list.servers) {
                ServerResolve r = s.partOrNull(ServerResolve.class);
                if (r == null || r.resolvers == null) {
                    continue;
                }
                if (!config.sections.containsKey(r.resolvers)) {
                    diag.configAlert((p.kind() == ProxyKind.BACKEND ? "backend" : "proxy") + " '" + p.name() + "', server '" + s.name
                            + "': unable to find required resolvers '" + r.resolvers + "'");
                }
            }
        }
    }
}
