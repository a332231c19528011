package io.fulcrum.acl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Networks of 128-bit addresses for a longest-prefix lookup without allocating: per prefix length,
 * longest first, the networks sorted and searched by bisection. Of equal networks the first given wins; they are all
 * kept, in order, for when it is removed at run time ({@link Holes}).
 */
final class PrefixTable {
    private final int[] lengths;
    private final long[][] highs;
    private final long[][] lows;
    private final int[][] positions;

    /** A network: its address already masked to {@code bits}, and the position of its pattern. */
    record Network(long high, long low, int bits, int position) {
    }

    PrefixTable(List<Network> networks) {
        TreeMap<Integer, List<Network>> byLength = new TreeMap<>(Comparator.reverseOrder());
        for (Network n : networks) {
            byLength.computeIfAbsent(n.bits(), b -> new ArrayList<>()).add(n);
        }
        int size = byLength.size();
        lengths = new int[size];
        highs = new long[size][];
        lows = new long[size][];
        positions = new int[size][];
        int i = 0;
        for (var e : byLength.entrySet()) {
            List<Network> sorted = new ArrayList<>(e.getValue());
            // Stable: among equal networks the first given stays first.
            sorted.sort(PrefixTable::compare);
            lengths[i] = e.getKey();
            highs[i] = sorted.stream().mapToLong(Network::high).toArray();
            lows[i] = sorted.stream().mapToLong(Network::low).toArray();
            positions[i] = sorted.stream().mapToInt(Network::position).toArray();
            i++;
        }
    }

    private static int compare(Network a, Network b) {
        int c = Long.compareUnsigned(a.high(), b.high());
        return c != 0 ? c : Long.compareUnsigned(a.low(), b.low());
    }

    /**
     * The longest network holding the address whose position is not in {@code holes}: its position, ranked
     * {@code rank} plus its length ({@link PatternIndex#findLive}); or -1.
     */
    long findLive(long high, long low, Holes holes, int rank) {
        for (int i = 0; i < lengths.length; i++) {
            long h = high & highMask(lengths[i]);
            long l = low & lowMask(lengths[i]);
            long[] hs = highs[i];
            long[] ls = lows[i];
            for (int k = first(hs, ls, h, l); k < hs.length && hs[k] == h && ls[k] == l; k++) {
                if (!holes.has(positions[i][k])) {
                    return PatternIndex.ranked(rank + lengths[i], positions[i][k]);
                }
            }
        }
        return -1;
    }

    /** The index of the first network at or after (h, l). */
    private static int first(long[] hs, long[] ls, long h, long l) {
        int lo = 0;
        int hi = hs.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(hs[mid], h);
            if (c == 0) {
                c = Long.compareUnsigned(ls[mid], l);
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    static long highMask(int bits) {
        return bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
    }

    static long lowMask(int bits) {
        return bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
    }

    /** The first (or second) half of 16 bytes as a big-endian long. */
    static long half(byte[] a, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | a[off + i] & 0xff;
        }
        return v;
    }
}
