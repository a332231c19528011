package io.fulcrum.sample;

import static io.fulcrum.sample.ArgType.SINT;

/**
 * Non-cryptographic hashes of binary samples (configuration.txt 7.3.1), with the values HAProxy gives:
 * crc32, crc32c, djb2, sdbm and wt6 (with an optional avalanche) and xxHash's xxh32, xxh64 and xxh3 (with
 * an optional seed).
 */
final class HashConverters {
    private HashConverters() {
    }

    private interface Hash32 {
        long hash(byte[] b, int off, int len);
    }

    private interface SeededHash {
        long hash(byte[] b, int off, int len, long seed);
    }

    static void register(SampleCatalog c) {
        hash32(c, "crc32", Hashes::crc32);
        hash32(c, "crc32c", Hashes::crc32c);
        hash32(c, "djb2", Hashes::djb2);
        hash32(c, "sdbm", Hashes::sdbm);
        hash32(c, "wt6", Hashes::wt6);
        // xxh32 uses the low 32 bits of the seed.
        seeded(c, "xxh32", (b, off, len, seed) -> Hashes.xxh32(b, off, len, (int) seed));
        seeded(c, "xxh64", Hashes::xxh64);
        seeded(c, "xxh3", Hashes::xxh3);
    }

    /** A 32-bit hash, avalanched when the optional argument is not zero. */
    private static void hash32(SampleCatalog c, String name, Hash32 h) {
        c.converter(new Converter(name, ArgSpec.of(0, SINT), SampleType.BIN, SampleType.SINT, (a, smp, ctx) -> {
            long v = h.hash(smp.bytes(), smp.offset(), smp.length());
            return smp.setSint(a.length > 0 && a[0].num() != 0 ? Hashes.avalanche(v) : v);
        }));
    }

    private static void seeded(SampleCatalog c, String name, SeededHash h) {
        c.converter(new Converter(name, ArgSpec.of(0, SINT), SampleType.BIN, SampleType.SINT,
                (a, smp, ctx) -> smp.setSint(h.hash(smp.bytes(), smp.offset(), smp.length(), a.length > 0 ? a[0].num() : 0))));
    }
}
