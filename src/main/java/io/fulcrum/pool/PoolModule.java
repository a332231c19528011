package io.fulcrum.pool;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;

import java.util.Locale;

/** {@code http-reuse}: how server connections are shared between client sessions; {@code show servers conn}. */
public final class PoolModule implements Module {

    @Override
    public void register(Registry registry) {
        registry.table(ProxyModule.KEYWORDS).add("http-reuse", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "http-reuse");
            String mode = Args.required(l, 1, "http-reuse", "one of 'never', 'safe', 'aggressive', 'always'");
            try {
                of(p).mode = ReuseMode.valueOf(mode.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("'http-reuse' expects one of 'never', 'safe', 'aggressive', 'always' but got '" + mode + "'.");
            }
        });
        PoolCommands.register(CliCommands.of(registry));
    }

    public static ReuseSpec of(ProxySpec p) {
        return p.part(ReuseSpec.class, ReuseSpec::new);
    }
}
