package io.fulcrum.runtime;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.runtime.GlobalModule.GlobalContext;

import io.netty.channel.uring.IoUring;

import java.util.List;

/**
 * The keywords of the poller, applied by {@link EventLoops}: {@code busy-polling}, {@code tune.maxpollevents},
 * {@code noepoll} and Fulcrum's own {@code io-uring} and {@code sched-batch}. Fulcrum's other pollers are Linux's
 * io_uring (when asked for) and the JDK's NIO selector: the keywords that disable HAProxy's poll, kqueue and evports
 * pollers leave nothing to disable.
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
        kw.add("io-uring", negatable, (g, l) -> {
            Args.noMoreThan(InternalsKeywords.positive(l), 0, "io-uring");
            boolean on = !l.keyword().equals("no");
            if (on && !IoUring.isAvailable()) {
                throw new ConfigException("'io-uring' : io_uring is unavailable on this system ("
                        + IoUring.unavailabilityCause().getMessage() + ").");
            }
            g.settings().ioUring = on;
        });
        kw.add("sched-batch", negatable, (g, l) -> {
            Args.noMoreThan(InternalsKeywords.positive(l), 0, "sched-batch");
            g.settings().schedBatch = !l.keyword().equals("no");
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
