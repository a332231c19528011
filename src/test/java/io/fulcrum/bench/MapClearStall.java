package io.fulcrum.bench;

import io.fulcrum.acl.PatternFile;
import io.fulcrum.sample.Sample;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the CLI's {@code add map}, {@code set map}, {@code del map} and {@code clear map} on the 16M-prefix map of
 * {@link MapBenchmark} cost, and what they cost the streams looking it up meanwhile: a thread looks up random
 * addresses in a loop and records the longest time between two lookups (a stall: a lock, a safepoint, a GC pause),
 * while this thread adds one entry, sets one, deletes two, adds and deletes one a thousand times, sets one a
 * thousand times, adds 10,000 one at a time (through the tiers of added entries; on a map of fewer than 80,000 entries
 * they are also folded into the base), then clears the map as those commands do ({@link PatternFile#add}, {@link PatternFile#setValue},
 * {@link PatternFile#remove}, {@link PatternFile#clear}). Prints each command's
 * duration and the longest gap during it (and in the 3 s after, when the old snapshot's garbage is collected),
 * with the GC pauses. A plain harness beside JMH: JMH measures rates, not the worst single operation. Run it
 * as docs/DEVELOPING.md says (main class io.fulcrum.bench.MapClearStall, {@code -Xmx6g}; arguments: the number
 * of entries, 16777216 by default, and of entries added one by one, 10000 by default).
 */
public final class MapClearStall {
    private MapClearStall() {
    }

    public static void main(String[] args) throws Exception {
        int entries = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 24;
        int adds = args.length > 1 ? Integer.parseInt(args[1]) : 10000;
        java.nio.file.Path file = Ipv4MapFile.of(entries);
        long gcMs = gcMillis();
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Ipv4MapFile.Loaded map = Ipv4MapFile.load(file);
        System.out.printf("loaded %d entries in %.1f s (this thread's CPU %.1f s, GC %.1f s)%n", map.patterns().entries().size(),
                (System.nanoTime() - t0) / 1e9, (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1e9,
                (gcMillis() - gcMs) / 1e3);
        System.gc();
        System.out.printf("heap used after a full GC: %d MB%n", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20);
        int[] addresses = Ipv4MapFile.addresses(1 << 20, false, 7);
        Looper looper = new Looper(map, addresses);
        Thread t = new Thread(looper, "lookups");
        t.start();
        Thread.sleep(5000); // the loop compiled and running
        PatternFile f = map.patterns();
        report("baseline (5 s, nothing else)", looper, () -> Thread.sleep(5000));
        String key = f.entries().get(entries / 3).key();
        String other = f.entries().get(entries / 2).key();
        report("add map (one entry)", looper, () -> f.add(f.currentVersion(), List.<String[]>of(new String[] {"240.0.0.0/8", "added"})));
        report("set map (one entry)", looper, () -> f.setValue(PatternFile.keyed(key), "changed"));
        report("del map (one entry)", looper, () -> f.remove(PatternFile.keyed(other)));
        report("del map (the added entry)", looper, () -> f.remove(PatternFile.keyed("240.0.0.0/8")));
        report("add + del map x 1000 (warm)", looper, () -> {
            for (int i = 0; i < 1000; i++) {
                String k = "242." + (i & 255) + ".0.0/16";
                f.add(f.currentVersion(), List.<String[]>of(new String[] {k, "w"}));
                f.remove(PatternFile.keyed(k));
            }
        });
        report("set map x 1000 (warm)", looper, () -> {
            for (int i = 0; i < 1000; i++) {
                f.setValue(PatternFile.keyed(key), "v" + i);
            }
        });
        report("add map x " + adds + " (one by one)", looper, () -> {
            for (int i = 0; i < adds; i++) {
                f.add(f.currentVersion(), List.<String[]>of(new String[] {"241." + (i >> 8) + "." + (i & 255) + ".0/24", "n" + i}));
            }
        });
        report("after the adds (3 s)", looper, () -> Thread.sleep(3000));
        report("clear map", looper, () -> f.clear(f.currentVersion()));
        report("after clear map (3 s)", looper, () -> Thread.sleep(3000));
        looper.stop.set(true);
        t.join();
        System.out.printf("%d lookups in all, %d found a prefix%n", looper.count, looper.hits);
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    private static void report(String what, Looper looper, Step step) throws Exception {
        long gcCount = gcCount();
        long gcMs = gcMillis();
        long before = looper.count;
        looper.maxGap = 0;
        looper.reset = true;
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long loopCpu = ManagementFactory.getThreadMXBean().getThreadCpuTime(looper.thread);
        long t0 = System.nanoTime();
        step.run();
        loopCpu = ManagementFactory.getThreadMXBean().getThreadCpuTime(looper.thread) - loopCpu;
        long ns = System.nanoTime() - t0;
        cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
        long lookups = looper.count - before;
        System.out.printf("%-30s %10.3f ms (CPU %.1f ms); lookups meanwhile %,d (%.2f M/s, %.2f M per CPU-second of their thread); longest gap between two lookups %.3f ms;"
                        + " GCs %d (%d ms)%n", what, ns / 1e6, cpu / 1e6, lookups, lookups * 1e3 / ns, lookups * 1e3 / loopCpu, looper.maxGap / 1e6,
                gcCount() - gcCount, gcMillis() - gcMs);
    }

    private static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    /** Looks up addresses until stopped, keeping the longest time between two successive lookups. */
    private static final class Looper implements Runnable {
        private final Ipv4MapFile.Loaded map;
        private final int[] addresses;
        final AtomicBoolean stop = new AtomicBoolean();
        volatile long maxGap;
        /** Set by the reporter, cleared by the loop when it starts a new maximum. */
        volatile boolean reset;
        volatile long count;
        long hits;
        volatile long thread;

        Looper(Ipv4MapFile.Loaded map, int[] addresses) {
            this.map = map;
            this.addresses = addresses;
        }

        @Override
        public void run() {
            thread = Thread.currentThread().threadId();
            Sample smp = new Sample();
            long last = System.nanoTime();
            long n = 0;
            long max = 0;
            while (!stop.get()) {
                if (Ipv4MapFile.lookup(map.map(), smp, addresses[(int) n & addresses.length - 1]) && smp.length() > 1) {
                    hits++; // every value is longer than the default "x"
                }
                long now = System.nanoTime();
                if (reset) {
                    reset = false;
                    max = 0;
                }
                if (now - last > max) {
                    max = now - last;
                    maxGap = max;
                }
                last = now;
                if ((++n & 1023) == 0) {
                    count = n;
                }
            }
            count = n;
        }
    }
}
