package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import java.util.List;

/**
 * The keywords of the poller, applied by {@link EventLoops}: {@code busy-polling}, {@code tune.maxpollevents} and
 * {@code noepoll}. Fulcrum's only other poller is the JDK's NIO selector: the keywords that disable HAProxy's
 * poll, kqueue and evports pollers leave nothing to disable.
 */
final class PollerKeywords {
    private PollerKeywords() {
    }

    static void register(KeywordTable<GlobalContext> kw, int negatable) {
        kw.add("busy-polling", negatable, (g, l) -> {
            Args.noMoreThan(InternalsKeywords.positive(l), 0, "busy-polling");
            g.settings().busyPolling = !l.keyword().equals("no");
        });
        kw.add("tune.maxpollevents", (g, l) -> {
            if (GlobalModule.once(l, g.settings().maxPollEvents)) {
                g.settings().maxPollEvents = (int) Args.atol(l.arg(1));
            }
        });
        kw.add("noepoll", (g, l) -> {
            Args.noMoreThan(l, 0, "noepoll");
            g.settings().noEpoll = true;
        });
        for (String name : List.of("nopoll", "nokqueue", "noevports")) {
            kw.add(name, (g, l) -> Args.noMoreThan(l, 0, name));
        }
    }
}
