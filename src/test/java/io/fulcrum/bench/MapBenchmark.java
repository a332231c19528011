package io.fulcrum.bench;

import io.fulcrum.sample.Sample;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@code map_ip} map of 16,777,216 distinct IPv4 prefixes ({@link Ipv4MapFile}): how many lookups of random addresses one thread makes per second, alone and with a second thread doing
 * the same ({@code addresses=all}: about 1 in 8 misses; {@code misses}: only misses, the longest search).
 * A lookup is what a stream does: the converter on an IPv4 sample. {@link MapLoadBenchmark} times loading it,
 * {@link MapClearStall} measures what
 * {@code clear map} and {@code add map} cost the lookups. How to run: docs/DEVELOPING.md, Tests; give the
 * fork a heap of 6 GB or more ({@code -jvmArgs -Xmx6g}), e.g. {@code MapBenchmark.lookup -p entries=16777216}.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms6g", "-XX:+UseParallelGC"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MapBenchmark {
    private static final int ADDRESSES = 1 << 20;

    @Param("16777216")
    int entries;

    @Param({"all", "misses"})
    String addresses;

    private Path file;
    private Ipv4MapFile.Loaded map;
    private int[] lookups;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        file = Ipv4MapFile.of(entries);
        long t0 = System.nanoTime();
        map = Ipv4MapFile.load(file);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        lookups = Ipv4MapFile.addresses(ADDRESSES, addresses.equals("misses"), 42);
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("%n%d entries loaded in %d ms; heap used after a GC: %d MB%n", map.patterns().entries().size(), ms, heap >> 20);
    }

    /** Each thread's position in the addresses, and its sample. */
    @State(Scope.Thread)
    public static class Cursor {
        private static final AtomicLong SEEDS = new AtomicLong();
        final Sample smp = new Sample();
        int next = (int) SEEDS.getAndAdd(ADDRESSES / 2);
    }

    /** One lookup; returns the value's length (1 for the default "x" of an address no prefix holds). */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @Threads(1)
    public int lookup(Cursor c) {
        return lookupOne(c);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @Threads(2)
    public int lookup2Threads(Cursor c) {
        return lookupOne(c);
    }

    private int lookupOne(Cursor c) {
        int a = lookups[c.next++ & ADDRESSES - 1];
        return Ipv4MapFile.lookup(map.map(), c.smp, a) ? c.smp.length() : -1;
    }
}
