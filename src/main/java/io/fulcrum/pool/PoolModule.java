package io.fulcrum.pool;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.http.HttpModule;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.server.DynamicServers;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;

import java.util.List;
import java.util.Locale;

/**
 * {@code http-reuse}: how server connections are shared between client sessions; the server options sizing
 * the idle pools ({@code pool-max-conn}, {@code pool-low-conn}, {@code pool-purge-delay}, {@code max-reuse});
 * {@code tune.idle-pool.shared}; {@code show servers conn}.
 */
public final class PoolModule implements Module {

    @Override
    public void register(Registry registry) {
        registry.table(ProxyModule.KEYWORDS).add("http-reuse", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "http-reuse");
            String mode = l.arg(1);
            if (!List.of("never", "safe", "aggressive", "always").contains(mode)) {
                throw new ConfigException("'http-reuse' only supports 'never', 'safe', 'aggressive', 'always'.");
            }
            of(p).mode = ReuseMode.valueOf(mode.toUpperCase(Locale.ROOT));
        });
        registry.table(ProxyModule.KEYWORDS).add("max-session-srv-conns", Capability.FE, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'max-session-srv-conns' expects a number. Got no argument");
            }
            // As HAProxy's atoi: "x" is 0, and 0 or less keeps none.
            HttpModule.of(p).maxSessionServerConns = (int) Math.max(0, Args.atol(l.arg(1)));
        });
        KeywordTable<ServerSpec> options = registry.table(ServerModule.OPTIONS);
        options.add("pool-max-conn", 1, (s, l) -> {
            long n = Units.integer(l.arg(1), "pool-max-conn");
            if (n < -1 || n > Integer.MAX_VALUE) {
                throw new ConfigException("'pool-max-conn' must be >= -1.");
            }
            settings(s).maxConn = (int) n;
        });
        // (HAProxy takes any number for these two: below 0 is as 0, and as no limit for max-reuse.)
        options.add("pool-low-conn", 1, (s, l) -> settings(s).lowConn = (int) Units.integer(l.arg(1), "pool-low-conn",
                Integer.MIN_VALUE, Integer.MAX_VALUE));
        options.add("max-reuse", 1, (s, l) -> settings(s).maxReuse = (int) Units.integer(l.arg(1), "max-reuse",
                Integer.MIN_VALUE, Integer.MAX_VALUE));
        options.add("pool-purge-delay", 1, (s, l) -> {
            try {
                settings(s).purgeDelay = Units.timeArgument(l.arg(1), "pool-purge-delay");
            } catch (ConfigException e) {
                throw new ConfigException(e.getMessage() + "."); // as HAProxy's server options
            }
        });
        registry.table(GlobalModule.KEYWORDS).add("tune.idle-pool.shared", (g, l) -> {
            Args.noMoreThan(l, 1, "tune.idle-pool.shared");
            String v = l.arg(1);
            if (!v.equals("on") && !v.equals("off")) {
                throw new ConfigException("'tune.idle-pool.shared' expects either 'on' or 'off' but got '" + v + "'.");
            }
            PoolGlobals.of(g.model()).shared = v.equals("on");
        });
        // Each configuration loaded sets how the process's loops share their idle connections.
        registry.check((model, diag) -> ServerPool.shareBetweenLoops(PoolGlobals.of(model).shared));
        PoolCommands.register(CliCommands.of(registry));
        DynamicServers.hook(registry, new DynamicServers.Hook() {
            @Override
            public void deleted(Fulcrum process, Backend b, Server s) {
                ServerPool.forget(s);
            }
        });
    }

    public static ReuseSpec of(ProxySpec p) {
        return p.part(ReuseSpec.class, ReuseSpec::new);
    }

    private static PoolSettings settings(ServerSpec s) {
        return s.part(PoolSettings.class, PoolSettings::new);
    }
}
