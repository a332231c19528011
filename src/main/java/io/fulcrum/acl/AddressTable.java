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
    private final Ipv4Ranges v4;
    private final PrefixTable v6;
    private final PatternIndex others;

    private AddressTable(Ipv4Ranges v4, PrefixTable v6, PatternIndex others) {
        this.v4 = v4;
        this.v6 = v6;
        this.others = others;
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
            PatternList list = new PatternList(masked.toArray(new PatternMatcher[0]));
            int[] positions = maskedPositions.stream().mapToInt(Integer::intValue).toArray();
            return new AddressTable(new Ipv4Ranges(v4s, v4Lengths, v4Positions, v4Count), new PrefixTable(v6s), smp -> {
                int i = list.find(smp);
                return i < 0 ? -1 : positions[i];
            });
        }
    }

    /** {@code smp} is an IPv4 or IPv6 sample. */
    @Override
    public int find(Sample smp) {
        int k;
        if (smp.type() == SampleType.IPV4) {
            k = v4.find((int) smp.num());
            if (k < 0) {
                k = v6.find(0, 0xffff00000000L | smp.num());
            }
        } else {
            k = v6.find(PrefixTable.half(smp.bytes(), smp.offset()), PrefixTable.half(smp.bytes(), smp.offset() + 8));
            long carried = k < 0 ? IpPattern.carriedV4(smp.bytes(), smp.offset()) : -1;
            if (carried >= 0) {
                k = v4.find((int) carried);
            }
        }
        return k >= 0 ? k : others.find(smp);
    }
}
