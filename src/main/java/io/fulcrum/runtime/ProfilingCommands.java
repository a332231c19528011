package io.fulcrum.runtime;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Queue;

/**
 * {@code show profiling}, {@code set profiling} and {@code show tasks} (management.txt 9.3), in HAProxy 2.6's layout,
 * with {@link Profiling}'s measures: a kind of work is named by the class of its code where HAProxy names a
 * function. Memory profiling is refused as by an HAProxy built without it (Debian's): the JVM allocates outside any
 * hook Fulcrum could count honestly.
 */
final class ProfilingCommands {
    private ProfilingCommands() {
    }

    private static final String SHOW_ERROR = "Expects either 'all', 'status', 'tasks', 'memory', 'byaddr' or a max number of output lines.\n";

    static void register(CliCommands c) {
        c.add("show profiling", "show profiling [<what>|<#lines>|byaddr]*", "show profiling state (all,status,tasks,memory)",
                CliLevel.USER, ProfilingCommands::show);
        // Both are listed at every level and refused below admin when run, as HAProxy 2.6 checks them.
        c.add("set profiling", "set profiling <what> {auto|on|off}", "enable/disable resource profiling (tasks,memory)",
                CliLevel.USER, ProfilingCommands::set);
        c.add("show tasks", "show tasks", "show running tasks", CliLevel.USER, ProfilingCommands::tasks);
    }

    /** A kind of work and its figures: calls (or places in the queues), CPU and latency in nanoseconds. */
    private record Row(String name, long calls, long cpu, long latency) {
    }

    private static void set(CliRequest r) throws CliException {
        r.require(CliLevel.ADMIN);
        switch (r.arg(2)) {
            case "memory" -> throw new CliException("Memory profiling not compiled in.\n");
            case "tasks" -> {
                if (!List.of("on", "auto", "off").contains(r.arg(3))) {
                    throw new CliException("Expects 'on', 'auto', or 'off'.\n");
                }
                Profiling.set(r.arg(3));
            }
            default -> throw new CliException("Expects either 'tasks' or 'memory'.\n");
        }
    }

    private static void show(CliRequest r) throws CliException {
        r.require(CliLevel.ADMIN);
        boolean status = true;
        boolean tasks = true;
        boolean byName = false;
        int max = 0;
        for (int i = 2; i < r.size(); i++) {
            String w = r.arg(i);
            switch (w) {
                case "all" -> {
                    status = true;
                    tasks = true;
                }
                case "status" -> {
                    status = true;
                    tasks = false;
                }
                case "tasks" -> {
                    status = false;
                    tasks = true;
                }
                case "memory" -> {
                    status = false;
                    tasks = false;
                }
                case "byaddr" -> byName = true;
                default -> {
                    if (w.isEmpty() || !Character.isDigit(w.charAt(0))) {
                        throw new CliException(SHOW_ERROR);
                    }
                    max = r.atoi(i);
                }
            }
        }
        StringBuilder b = new StringBuilder(1024);
        if (status) {
            b.append(String.format("Per-task CPU profiling              : %-8s      # set profiling tasks {on|auto|off}%n",
                    Profiling.NAMES[Profiling.mode()]));
            b.append("Memory usage profiling              : off           # set profiling memory {on|off}\n");
        }
        if (tasks) {
            List<Row> rows = new ArrayList<>();
            Profiling.kinds().forEach((k, v) -> rows.add(new Row(k, v.calls.sum(), v.cpuNanos.sum(), v.latencyNanos.sum())));
            rows.removeIf(x -> x.calls() == 0);
            // HAProxy sorts by calls, or by its functions' addresses: here, their names.
            rows.sort(byName ? Comparator.comparing(Row::name) : Comparator.comparingLong(Row::calls).reversed());
            b.append("Tasks activity:\n  function                      calls   cpu_tot   cpu_avg   lat_tot   lat_avg\n");
            for (int i = 0; i < rows.size() && (max == 0 || i < max); i++) {
                Row x = rows.get(i);
                name(b, x.name(), x.calls());
                time(b, x.cpu());
                time(b, x.cpu() / x.calls());
                time(b, x.latency());
                time(b, x.latency() / x.calls());
                b.append('\n');
            }
        }
        r.print(b);
    }

    /**
     * The tasks waiting in each loop's queue, by kind (HAProxy's run queues and tasklet lists): how many, their share,
     * and how long they have waited when known (queued while a loop profiled).
     */
    private static void tasks(CliRequest r) {
        EventLoops loops = r.process().loops();
        long now = System.nanoTime();
        Map<String, long[]> kinds = new LinkedHashMap<>();
        List<LoopActivity> all = loops.activities();
        for (LoopActivity a : all) {
            Queue<Runnable> q = loops.taskQueue(a);
            try {
                for (Runnable t : q) {
                    long[] v = kinds.computeIfAbsent(Profiling.queuedKind(t), k -> new long[2]);
                    v[0]++;
                    v[1] += Profiling.waited(t, now);
                }
            } catch (UnsupportedOperationException | ConcurrentModificationException | NoSuchElementException e) {
                // the queue changed under the look: what was seen is told
            }
        }
        long total = kinds.values().stream().mapToLong(v -> v[0]).sum();
        List<Map.Entry<String, long[]>> rows = new ArrayList<>(kinds.entrySet());
        rows.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[0]).reversed());
        StringBuilder b = new StringBuilder(512);
        b.append("Running tasks: ").append(total).append(" (").append(all.size()).append(" threads)\n");
        b.append("  function                     places     %    lat_tot   lat_avg\n");
        for (Map.Entry<String, long[]> e : rows) {
            long n = e.getValue()[0];
            name(b, e.getKey(), n);
            b.append(String.format("  %3d.%1d", 100 * n / total, 1000 * n / total % 10));
            time(b, e.getValue()[1]);
            time(b, e.getValue()[1] / n);
            b.append('\n');
        }
        r.print(b);
    }

    /** The name and the count, in 35 columns at least, as HAProxy reserves them. */
    private static void name(StringBuilder b, String name, long count) {
        b.append("  ").append(name).append(String.format("%" + Math.max(1, 35 - name.length()) + "d", count));
    }

    /** HAProxy's print_time_short after three spaces: four significant digits and the unit. */
    static void time(StringBuilder b, long nanos) {
        double v = nanos;
        double[] scales = {86_400e9, 3_600e9, 60e9, 1e9, 1e6, 1e3};
        String[] units = {"d", "h", "m", "s", "ms", "us"};
        for (int i = 0; i < scales.length; i++) {
            if (v >= scales[i]) {
                b.append("   ").append(String.format(Locale.ROOT, "%.4g", v / scales[i])).append(units[i]);
                return;
            }
        }
        b.append("   ").append(String.format(Locale.ROOT, "%.4g", v)).append("ns");
    }
}
