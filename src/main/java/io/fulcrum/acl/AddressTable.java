package io.fulcrum.acl;

import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;

import java.util.ArrayList;
import java.util.List;

/**
 * Address patterns as HAProxy looks them up: IPv4 and IPv6 networks in two longest-prefix tables, and
 * IPv4 patterns whose mask is not a prefix in a list tried last. An IPv4 sample is looked up among the
 * IPv4 networks, then among the IPv6 ones in its mapped form; an IPv6 sample among the IPv6 networks,
 * then, when it carries an IPv4 address, among the IPv4 ones.
 */
final class AddressTable implements PatternIndex {
    private final PrefixTable v4;
    private final PrefixTable v6;
    private final PatternIndex others;

    AddressTable(List<IpPattern> patterns) {
        List<PrefixTable.Network> v4s = new ArrayList<>();
        List<PrefixTable.Network> v6s = new ArrayList<>();
        List<PatternMatcher> masked = new ArrayList<>();
        List<Integer> maskedPositions = new ArrayList<>();
        for (int k = 0; k < patterns.size(); k++) {
            IpPattern p = patterns.get(k);
            if (p.prefix() < 0) {
                masked.add(p::matches);
                maskedPositions.add(k);
            } else {
                byte[] n = p.network();
                (p.v4() ? v4s : v6s).add(new PrefixTable.Network(PrefixTable.half(n, 0), PrefixTable.half(n, 8), p.prefix(), k));
            }
        }
        v4 = new PrefixTable(v4s);
        v6 = new PrefixTable(v6s);
        PatternList list = new PatternList(masked.toArray(new PatternMatcher[0]));
        others = smp -> {
            int i = list.find(smp);
            return i < 0 ? -1 : maskedPositions.get(i);
        };
    }

    /** {@code smp} is an IPv4 or IPv6 sample. */
    @Override
    public int find(Sample smp) {
        int k;
        if (smp.type() == SampleType.IPV4) {
            long mapped = 0xffff00000000L | smp.num();
            k = v4.find(0, mapped);
            if (k < 0) {
                k = v6.find(0, mapped);
            }
        } else {
            k = v6.find(PrefixTable.half(smp.bytes(), smp.offset()), PrefixTable.half(smp.bytes(), smp.offset() + 8));
            long carried = k < 0 ? IpPattern.carriedV4(smp.bytes(), smp.offset()) : -1;
            if (carried >= 0) {
                k = v4.find(0, 0xffff00000000L | carried);
            }
        }
        return k >= 0 ? k : others.find(smp);
    }
}
