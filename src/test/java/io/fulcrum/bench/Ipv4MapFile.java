package io.fulcrum.bench;

import io.fulcrum.Modules;
import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.PatternFiles;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A map file of distinct IPv4 prefixes for the map benchmarks, and the map converter that reads it as Fulcrum's
 * configuration does ({@code map_ip}). Prefixes are /8 to /32 (length drawn uniformly, then the address), each
 * with a short string value, from a fixed seed; none is in 224.0.0.0/3, so addresses there miss. The file is
 * written once to the temporary directory and reused by later runs (its name says its size and seed).
 */
final class Ipv4MapFile {
    static final long SEED = 0x5eed_0f_1a9L;
    /** First octets at or above this one have no prefix. */
    static final int FIRST_MISSING_OCTET = 224;

    private Ipv4MapFile() {
    }

    /** The file of {@code count} prefixes, written unless an earlier run left it. */
    static Path of(int count) throws IOException {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "fulcrum-bench-ipv4-" + count + "-" + Long.toHexString(SEED) + ".map");
        if (!Files.exists(file)) {
            Path tmp = Files.createTempFile(file.getParent(), "fulcrum-bench", ".part");
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
                write(count, out);
            }
            Files.move(tmp, file);
        }
        return file;
    }

    private static void write(int count, OutputStream out) throws IOException {
        SplittableRandom rnd = new SplittableRandom(SEED);
        LongSet seen = new LongSet(count);
        StringBuilder line = new StringBuilder(40);
        for (int n = 0; n < count; ) {
            int len = 8 + rnd.nextInt(25);
            long addr = rnd.nextLong(0x1_0000_0000L) & 0xffff_ffffL << (32 - len) & 0xffff_ffffL;
            if (addr >>> 24 >= FIRST_MISSING_OCTET || !seen.add(addr << 6 | len)) {
                continue;
            }
            line.setLength(0);
            line.append(addr >>> 24).append('.').append(addr >>> 16 & 0xff).append('.').append(addr >>> 8 & 0xff).append('.')
                    .append(addr & 0xff).append('/').append(len).append(" as").append(n % 65521).append('\n');
            out.write(line.toString().getBytes(StandardCharsets.ISO_8859_1));
            n++;
        }
    }

    /**
     * A map converter and its file's pattern set.
     *
     * @param map      the converter as a stream runs it
     * @param patterns what the CLI's map commands change
     */
    record Loaded(Expr.Step map, PatternFile patterns) {
    }

    /** What a configuration's {@code src,map_ip(<file>,x)} compiles to, loading the file in a registry of its own. */
    static Loaded load(Path file) throws ConfigException {
        Registry registry = Registry.of(Modules.ALL);
        Expr e = new ExprParser(SampleCatalog.of(registry)).parse("ipv4(0.0.0.0),map_ip(" + file + ",x)");
        return new Loaded(e.steps().get(0), PatternFiles.of(registry).get(file.toString()));
    }

    /** Random addresses over the whole IPv4 space, or only where no prefix is (the misses). */
    static int[] addresses(int count, boolean missesOnly, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            int a = rnd.nextInt();
            out[i] = missesOnly ? a | 0xe0000000 : a;
        }
        return out;
    }

    /** One lookup, as a stream runs the converter: the address into {@code smp}, then the map's value out of it. */
    static boolean lookup(Expr.Step map, Sample smp, int address) {
        smp.setIpv4(address);
        Converter c = map.converter();
        return c.fn().convert(map.args(), smp, null);
    }

    /** An open-addressing set of non-zero longs, for drawing distinct prefixes without boxing 16M of them. */
    private static final class LongSet {
        private final long[] slots;

        LongSet(int expected) {
            slots = new long[Integer.highestOneBit(expected) << 2];
        }

        boolean add(long v) {
            int mask = slots.length - 1;
            for (int i = (int) (v * 0x9e3779b97f4a7c15L >>> 33) & mask; ; i = i + 1 & mask) {
                if (slots[i] == v) {
                    return false;
                }
                if (slots[i] == 0) {
                    slots[i] = v;
                    return true;
                }
            }
        }
    }
}
