package io.fulcrum.master;

import io.fulcrum.Version;

/** The master CLI's {@code show proc}, in HAProxy's columns. */
final class ShowProc {
    private ShowProc() {
    }

    static String render(Master master) {
        long now = System.currentTimeMillis();
        StringBuilder b = new StringBuilder();
        b.append(String.format("#%-14s %-15s %-15s %-15s %-15s%n", "<PID>", "<type>", "<reloads>", "<uptime>", "<version>"));
        b.append(String.format("%-15d %-15s %-15s %-15s %-15s%n", ProcessHandle.current().pid(), "master",
                master.reloads() + " [failed: " + master.failedReloads() + "]", uptime(now - master.startMillis()), Version.FULCRUM));
        b.append("# workers\n");
        master.workers().stream().filter(w -> !w.leaving).forEach(w -> line(b, w, now));
        if (master.workers().stream().anyMatch(w -> w.leaving)) {
            b.append("# old workers\n");
            master.workers().stream().filter(w -> w.leaving).forEach(w -> line(b, w, now));
        }
        b.append("# programs\n");
        master.programs().stream().filter(p -> !p.leaving).forEach(p -> line(b, p, now));
        if (master.programs().stream().anyMatch(p -> p.leaving)) {
            b.append("# old programs\n");
            master.programs().stream().filter(p -> p.leaving).forEach(p -> line(b, p, now));
        }
        return b.toString();
    }

    /** A program's line: its section's name as the type, "-" as the version. */
    private static void line(StringBuilder b, Program p, long now) {
        b.append(String.format("%-15d %-15s %-15d %-15s %-15s%n", p.pid(), p.spec.name, p.reloads, uptime(now - p.startMillis), "-"));
    }

    private static void line(StringBuilder b, Worker w, long now) {
        b.append(String.format("%-15d %-15s %-15d %-15s %-15s%n", w.pid(), "worker", w.reloads, uptime(now - w.startMillis), Version.FULCRUM));
    }

    /** HAProxy's "0d00h00m02s". */
    static String uptime(long millis) {
        long s = Math.max(0, millis / 1000);
        return String.format("%dd%02dh%02dm%02ds", s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60);
    }
}
