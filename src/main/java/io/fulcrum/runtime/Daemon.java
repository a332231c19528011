package io.fulcrum.runtime;

import io.fulcrum.cfg.Diagnostics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Daemon mode ({@code -D}, {@code daemon}). A JVM cannot fork, so the process starts a copy of itself in
 * a new session, waits until the copy has bound its listeners (or failed, with its alerts on the
 * terminal), and exits with the matching status. The copy then stops writing to the terminal.
 */
public final class Daemon {
    private Daemon() {
    }

    private static final String READY = "FULCRUM-DAEMON-READY";

    /** In the parent: starts the daemon and returns the exit status for the parent. */
    public static int spawn(String[] args, Diagnostics diag) {
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        cmd.addAll(self());
        cmd.addAll(List.of(args));
        cmd.add("--daemon-child");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.equals(READY)) {
                        return 0;
                    }
                }
            }
            return p.waitFor() == 0 ? 1 : p.exitValue();
        } catch (IOException e) {
            diag.alert("Cannot start the daemon: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** The command that starts this program again, in a new JVM with the same options (without arguments). */
    public static List<String> self() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        String path = System.getProperty("java.class.path");
        if (path.endsWith(".jar") && !path.contains(java.io.File.pathSeparator)) {
            // The packaged jar: its manifest carries what the command line must not (native access, for the AOT cache).
            cmd.addAll(List.of("-jar", path));
        } else {
            cmd.addAll(List.of("-cp", path, "io.fulcrum.Main"));
        }
        return cmd;
    }

    /**
     * In the daemon, once serving: tells the parent, then leaves the terminal, its standard output and error pointed
     * at /dev/null (not merely unused: a pipe it started with would never see its end, and a caller reading it wait).
     */
    public static void detached(Diagnostics diag) {
        diag.detach();
        System.out.println(READY);
        System.out.flush();
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(nowhere);
        System.setErr(nowhere);
        LibC.toDevNull(1, 2);
    }
}
