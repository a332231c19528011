package io.fulcrum.check;

import io.fulcrum.backend.Backend;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerState;
import io.fulcrum.stream.LiveStream;
import io.fulcrum.stream.LiveStreams;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code on-marked-down shutdown-sessions} and {@code on-marked-up shutdown-backup-sessions} (configuration.txt
 * 5.2): when the server goes down (a check, the CLI, maintenance), its streams are killed ('D' in the log); when
 * it comes up, an active server of non-zero weight kills the streams of its backend's backup servers ('U').
 * The kills are posted to the event loops; the thread that changed the state does not wait for them.
 */
final class MarkedActions {
    private MarkedActions() {
    }

    static void watch(Server server, Backend backend, ServerCheckSpec spec, EventLoops loops) {
        if (!spec.shutdownOnDown && !spec.shutdownBackupsOnUp) {
            return;
        }
        ServerState state = server.state();
        AtomicBoolean wasUp = new AtomicBoolean(state.up());
        server.onChange(() -> {
            boolean up = state.up();
            if (wasUp.getAndSet(up) == up) {
                return; // a change of weight, or of usability without a change of health
            }
            if (!up && spec.shutdownOnDown) {
                LiveStreams.each(loops, s -> s.server() == server, s -> s.kill('D'), false);
            } else if (up && spec.shutdownBackupsOnUp && !server.spec().backup && state.weight() > 0) {
                LiveStreams.each(loops, s -> onBackupOf(s, backend), s -> s.kill('U'), false);
            }
        });
    }

    private static boolean onBackupOf(LiveStream s, Backend backend) {
        Server srv = s.server();
        return srv != null && srv.spec().backup && s.backend() == backend;
    }
}
