package io.fulcrum.bench;

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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * How long loading the {@link MapBenchmark} map takes, as the configuration does it: reading the file, parsing
 * its lines, compiling the longest-prefix index and reading every value. Single shots (the first is also the
 * JIT's warm-up: compare the two).
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms6g", "-XX:+UseParallelGC"})
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 2)
public class MapLoadBenchmark {
    @Param("16777216")
    int entries;

    private Path file;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        file = Ipv4MapFile.of(entries);
    }

    @Benchmark
    public Object load() throws Exception {
        return Ipv4MapFile.load(file);
    }
}
