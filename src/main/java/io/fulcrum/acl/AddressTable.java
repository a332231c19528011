package io.fulcrum.acl;

import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Address patterns as HAProxy looks them up: IPv4 and IPv6 networks in two longest-prefix tables
 * ({@link Ipv4Ranges}, {@link PrefixTable}), and IPv4 patterns whose mask is not a prefix in a list tried last.
 * An IPv4 sample is looked up among the IPv4 networks, then among the IPv6 ones in its mapped form; an IPv6
 * sample among the IPv6 networks, then, when it carries an IPv4 address, among the IPv4 ones.
 */
final class AddressTable implements PatternIndex {
    /** Ranks of hits ({@link PatternIndex#findLive}): a network of the sample's family, then one of the other family. */
    private static final int SAME_FAMILY = 512;
    private static final int OTHER_FAMILY = 256;

    private final Ipv4Ranges v4;
    private final PrefixTable v6;
    /** The patterns whose mask is not a prefix, and their positions. */
    private final PatternList others;
    private final int[] otherPositions;

    private AddressTable(Ipv4Ranges v4, PrefixTable v6, PatternList others, int[] otherPositions) {
        this.v4 = v4;
        this.v6 = v6;
        this.others = others;
        this.otherPositions = otherPositions;
    }

    /**
     * Collects the patterns in order, keeping only what the tables are built from (a map of millions of
     * IPv4 networks takes three ints for each).
     */
    static final class Builder {
        private int[] v4s;
        private int[] v4Lengths;
        private int[] v4Positions;
        private int v4Count;
        private final List<PrefixTable.Network> v6s = new ArrayList<>();
        private final List<PatternMatcher> masked = new ArrayList<>();
        private final List<Integer> maskedPositions = new ArrayList<>();
        private int position;

        Builder(int expected) {
            v4s = new int[expected];
            v4Lengths = new int[expected];
            v4Positions = new int[expected];
        }

        void add(IpPattern p) {
            int k = position++;
            if (p.prefix() < 0) {
                masked.add(p::matches);
                maskedPositions.add(k);
            } else if (p.v4()) {
                if (v4Count == v4s.length) {
                    int size = Math.max(16, v4Count * 2);
                    v4s = Arrays.copyOf(v4s, size);
                    v4Lengths = Arrays.copyOf(v4Lengths, size);
                    v4Positions = Arrays.copyOf(v4Positions, size);
                }
                v4s[v4Count] = (int) PrefixTable.half(p.network(), 8); // the low 32 bits of ::ffff:a.b.c.d
                v4Lengths[v4Count] = p.prefix() - 96;
                v4Positions[v4Count++] = k;
            } else {
                byte[] n = p.network();
                v6s.add(new PrefixTable.Network(PrefixTable.half(n, 0), PrefixTable.half(n, 8), p.prefix(), k));
            }
        }

        AddressTable build() {
            return new AddressTable(new Ipv4Ranges(v4s, v4Lengths, v4Positions, v4Count), new PrefixTable(v6s),
                    new PatternList(masked.toArray(new PatternMatcher[0])), maskedPositions.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** {@code smp} is an IPv4 or IPv6 sample. */
    @Override
    public int find(Sample smp) {
        return (int) findLive(smp, Holes.NONE);
    }

    @Override
    public long findLive(Sample smp, Holes holes) {
        long k;
        if (smp.type() == SampleType.IPV4) {
            k = v4.findLive((int) smp.num(), holes, SAME_FAMILY);
            if (k < 0) {
                k = v6.findLive(0, 0xffff00000000L | smp.num(), holes, OTHER_FAMILY);
            }
        } else {
            k = v6.findLive(PrefixTable.half(smp.bytes(), smp.offset()), PrefixTable.half(smp.bytes(), smp.offset() + 8), holes, SAME_FAMILY);
            long carried = k < 0 ? IpPattern.carriedV4(smp.bytes(), smp.offset()) : -1;
            if (carried >= 0) {
                k = v4.findLive((int) carried, holes, OTHER_FAMILY);
            }
        }
        if (k >= 0) {
            return k;
        }
        for (int i = 0; i < otherPositions.length; i++) { // rank 0: in order
            if (!holes.has(otherPositions[i]) && others.patterns()[i].matches(smp)) {
                return otherPositions[i];
            }
        }
        return -1;
    }

    @Override
    public boolean skipsHoles() {
        return true;
    }
}
