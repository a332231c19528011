package io.fulcrum.master;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

/** Master-worker mode: the global {@code master-worker} and {@code mworker-max-reloads} keywords, the {@code program} sections. */
public final class MasterModule implements Module {

    @Override
    public void register(Registry registry) {
        KeywordTable<GlobalContext> kw = registry.table(GlobalModule.KEYWORDS);
        kw.add("master-worker", (g, l) -> {
            MasterSettings s = MasterSettings.of(g.model());
            if (l.has(1)) {
                if (!l.arg(1).equals("no-exit-on-failure")) {
                    throw new ConfigException("'master-worker' only supports 'no-exit-on-failure' option.");
                }
                Args.noMoreThan(l, 1, "master-worker");
                s.exitOnFailure = false;
            }
            s.enabled = true;
        });
        kw.add("mworker-max-reloads", (g, l) -> {
            Args.noMoreThan(l, 1, "mworker-max-reloads");
            // HAProxy only warns about a missing or negative value (and keeps its default).
            if (l.arg(1).isEmpty()) {
                l.warn("'mworker-max-reloads' expects an integer argument.");
                return;
            }
            long n = Args.atol(l.arg(1));
            if (n < 0) {
                l.warn("'mworker-max-reloads' : invalid value " + n + ", must be >= 0");
                return;
            }
            MasterSettings.of(g.model()).maxReloads = n;
        });
        ProgramSection.register(registry);
    }
}
