package io.fulcrum.master;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An instance of a {@code program} section that the master started. Written on the master's thread, read by its CLI
 * sessions ({@code show proc}).
 */
final class Program {
    final ProgramSpec spec;
    final Process process;
    final long startMillis = System.currentTimeMillis();
    /** Reloads this instance survived ({@code show proc}'s {@code <reloads>}). */
    volatile int reloads;
    /** A reload came: it got SIGUSR1 and is listed among the "old programs" until it exits. */
    volatile boolean leaving;

    private Program(ProgramSpec spec, Process process) {
        this.spec = spec;
        this.process = process;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Starts the program with the configuration's environment and HAPROXY_MWORKER, as the user and group of its
     * section: the JVM cannot change them between fork and exec, so setpriv(1) does (the group first, with no
     * supplementary groups, as HAProxy's setgroups, setgid, setuid). A daemon's programs write nowhere, as its workers.
     */
    static Program start(ProgramSpec spec, MasterSettings settings, boolean daemon) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (spec.user != null || spec.group != null) {
            cmd.add("setpriv");
            if (spec.group != null) {
                cmd.addAll(List.of("--regid=" + spec.group, "--clear-groups"));
            }
            if (spec.user != null) {
                cmd.add("--reuid=" + spec.user);
            }
            cmd.add("--");
        }
        cmd.addAll(spec.command);
        ProcessBuilder.Redirect out = daemon ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.INHERIT;
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out).redirectError(out);
        pb.environment().clear();
        pb.environment().putAll(settings.environment);
        pb.environment().put("HAPROXY_MWORKER", "1");
        return new Program(spec, pb.start());
    }
}
