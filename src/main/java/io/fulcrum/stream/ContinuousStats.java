package io.fulcrum.stream;

import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.Services;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code option contstats}: every second, on each event loop, the running streams of the frontends that ask for it
 * put the bytes they moved since the last time into the counters (HAProxy does it whenever it processes a stream,
 * "typically every 5 seconds" says its manual; observed every second or two). Nothing runs without the option.
 */
final class ContinuousStats implements Services.Service {
    private static final long PERIOD_MS = 1000;

    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();

    @Override
    public boolean start(Fulcrum process) {
        if (process.frontends().stream().noneMatch(f -> f.logger().contstats())) {
            return true;
        }
        for (EventExecutor loop : process.loops().group()) {
            tasks.add(loop.scheduleAtFixedRate(ContinuousStats::countRunningStreams, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS));
        }
        return true;
    }

    /** On a loop: its running streams whose frontend has the option. */
    private static void countRunningStreams() {
        for (LiveStream s = LiveStreams.current().head(); s != null; s = s.next) {
            Frontend fe = s.frontend();
            if (fe != null && fe.logger().contstats()) {
                s.countRunningBytes();
            }
        }
    }

    @Override
    public void stop() {
        tasks.forEach(t -> t.cancel(false));
        tasks.clear();
    }
}
