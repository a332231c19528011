package io.fulcrum.acl;

/**
 * IPv4 networks for a longest-prefix lookup in a few memory reads, however many there are: networks nest or are
 * disjoint, so they cut the address space into ranges that each have one longest network holding them (or none).
 * The ranges are kept sorted by their first address, each with its network's position, in one array; a table of
 * the top bits of an address gives the few ranges where it can fall, searched by bisection. A lookup takes no
 * lock and allocates nothing; 16M networks take about 8 bytes for each of their at most 2n + 1 ranges, and 9 for
 * each network: its position, its length, and the next network holding it, for when one is removed at run time
 * ({@link Holes}): the next one is then an equal network given later, or else the enclosing one.
 */
final class Ipv4Ranges {
    /** Each range: its first address (unsigned) in the high half, its network's index or -1 in the low half. */
    private final long[] ranges;
    private final int[] positions;
    private final byte[] lengths;
    /** For each network (by index), the next network holding it: an equal one given later, or the enclosing one; or -1. */
    private final int[] parents;
    /** For each value of an address's top bits, the index of the range holding the first address with them. */
    private final int[] buckets;
    private final int shift;

    /**
     * @param networks  each network's address, already masked to its length
     * @param lengths   each network's prefix length (0 to 32)
     * @param positions each network's position: of equal networks, the one given first is kept
     * @param count     how many of the arrays' first elements are networks
     */
    Ipv4Ranges(int[] networks, int[] lengths, int[] positions, int count) {
        this.positions = positions;
        this.lengths = new byte[count];
        this.parents = new int[count];
        long[] sorted = sort(networks, lengths, count);
        Builder b = new Builder(count);
        long[] ends = new long[33];
        int[] open = new int[33];
        int depth = 0;
        long previous = -1;
        int last = -1;
        for (int i = 0; i < count; i++) {
            long key = sorted[2 * i];
            int k = (int) sorted[2 * i + 1];
            this.lengths[k] = (byte) lengths[k];
            if (key == previous) { // an equal network given later: next after the last equal one
                parents[k] = parents[last];
                parents[last] = k;
                last = k;
                continue;
            }
            previous = key;
            last = k;
            long start = key >>> 6;
            while (depth > 0 && ends[depth - 1] < start) {
                depth--;
                b.add(ends[depth] + 1, depth > 0 ? open[depth - 1] : -1);
            }
            parents[k] = depth > 0 ? open[depth - 1] : -1;
            b.add(start, k);
            ends[depth] = start + (1L << (32 - (key & 63))) - 1;
            open[depth++] = k;
        }
        while (depth-- > 0) {
            b.add(ends[depth] + 1, depth > 0 ? open[depth - 1] : -1);
        }
        ranges = b.ranges();
        int bits = Math.max(0, Math.min(22, 31 - Integer.numberOfLeadingZeros(ranges.length)));
        shift = 32 - bits;
        buckets = new int[(1 << bits) + 1];
        int r = 0;
        for (int top = 0; top < 1 << bits; top++) {
            long first = (long) top << shift;
            while (r + 1 < ranges.length && ranges[r + 1] >>> 32 <= first) {
                r++;
            }
            buckets[top] = r;
        }
        buckets[1 << bits] = ranges.length - 1;
    }

    /** The position of the longest network holding {@code address}, or -1. */
    int find(int address) {
        int k = network(address);
        return k < 0 ? -1 : positions[k];
    }

    /**
     * The longest network holding {@code address} whose position is not in {@code holes}: its position, ranked
     * {@code rank} plus its length ({@link PatternIndex#findLive}); or -1.
     */
    long findLive(int address, Holes holes, int rank) {
        int k = network(address);
        while (k >= 0 && holes.has(positions[k])) {
            k = parents[k];
        }
        return k < 0 ? -1 : PatternIndex.ranked(rank + lengths[k], positions[k]);
    }

    /** The index of the longest network holding {@code address}, or -1. */
    private int network(int address) {
        long a = address & 0xffffffffL;
        int top = (int) (a >>> shift);
        int lo = buckets[top];
        int hi = buckets[top + 1];
        // The range is the last one from lo to hi that starts at or before the address (ranges[lo] does).
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (ranges[mid] >>> 32 <= a) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (int) ranges[lo];
    }

    /**
     * The networks as pairs (first address and length, index), by first address then length (the enclosing
     * network first), equal networks in the order given: a stable radix sort, without a boxed object per network.
     */
    private static long[] sort(int[] networks, int[] lengths, int count) {
        long[] a = new long[2 * count];
        for (int i = 0; i < count; i++) {
            a[2 * i] = (networks[i] & 0xffffffffL) << 6 | lengths[i];
            a[2 * i + 1] = i;
        }
        long[] b = new long[2 * count];
        int[] counts = new int[1 << 13];
        for (int digit = 0; digit < 39; digit += 13) {
            java.util.Arrays.fill(counts, 0);
            for (int i = 0; i < count; i++) {
                counts[(int) (a[2 * i] >>> digit) & 0x1fff]++;
            }
            for (int d = 0, sum = 0; d < counts.length; d++) {
                int c = counts[d];
                counts[d] = sum;
                sum += c;
            }
            for (int i = 0; i < count; i++) {
                int to = counts[(int) (a[2 * i] >>> digit) & 0x1fff]++;
                b[2 * to] = a[2 * i];
                b[2 * to + 1] = a[2 * i + 1];
            }
            long[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    /** The ranges in order, a range that starts where the previous one did replacing it. */
    private static final class Builder {
        private long[] ranges;
        private int size;

        Builder(int networks) {
            ranges = new long[2 * networks + 1]; // the most there can be: no copy while building
            add(0, -1);
        }

        void add(long start, int position) {
            if (start > 0xffffffffL) {
                return; // after the network that ends the address space
            }
            long range = start << 32 | position & 0xffffffffL;
            if (size > 0 && ranges[size - 1] >>> 32 == start) {
                ranges[size - 1] = range;
            } else if (size == 0 || (int) ranges[size - 1] != position) {
                ranges[size++] = range;
            }
        }

        long[] ranges() {
            return java.util.Arrays.copyOf(ranges, size);
        }
    }
}
