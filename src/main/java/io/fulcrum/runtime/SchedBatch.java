package io.fulcrum.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code sched-batch}: the event loops' threads under Linux's SCHED_BATCH policy ({@link GlobalSettings#schedBatch}).
 * A thread of its own sets it, by the loops' kernel ids: the native calls take some 70 ms to load, which the loops'
 * start and the first connections need not wait for.
 */
final class SchedBatch {
    private SchedBatch() {
    }

    /** The calling thread's id in the kernel (gettid), read from /proc; -1 where the system does not say. */
    static int currentTid() {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "<pid>/task/<tid>"
            return Integer.parseInt(self.substring(self.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Puts the threads of {@code tids} (-1: unknown, skipped) under SCHED_BATCH, in the background. */
    static void apply(List<Integer> tids) {
        List<Integer> known = tids.stream().filter(t -> t > 0).toList();
        if (!known.isEmpty()) {
            Thread.ofPlatform().name("fulcrum-sched").daemon().start(() -> known.forEach(LibC::batch));
        }
    }
}
