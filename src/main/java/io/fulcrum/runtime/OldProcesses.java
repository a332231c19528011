package io.fulcrum.runtime;

import java.util.ArrayList;
import java.util.List;

/** The older processes a start replaces ({@code -sf} and {@code -st} pids), which it may ask to pause or resume. */
public final class OldProcesses {
    private final List<Long> pids = new ArrayList<>();

    public OldProcesses(CommandLine cl) {
        pids.addAll(cl.finishPids);
        pids.addAll(cl.terminatePids);
    }

    public boolean isEmpty() {
        return pids.isEmpty();
    }

    /** Sends {@code signal} ("TTOU", "TTIN") to each of them; false when none could be reached. */
    public boolean signal(String signal) {
        boolean reached = false;
        for (long pid : pids) {
            reached |= LibC.kill(pid, signal) == null;
        }
        return reached;
    }
}
