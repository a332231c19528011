package io.fulcrum.acl;

import io.fulcrum.sample.Sample;
import io.netty.util.AsciiString;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exact string patterns in a hash table, those with "-i" or those without: of equal patterns the first
 * is chosen, as in HAProxy's string tree.
 */
final class ExactStrings implements PatternIndex {
    private final Map<AsciiString, Integer> positions = new HashMap<>();
    private final EqualKeys equal;
    private final boolean folded;

    ExactStrings(List<PatternValue> patterns, boolean folded) {
        this.folded = folded;
        equal = new EqualKeys(patterns.size());
        for (int k = 0; k < patterns.size(); k++) {
            PatternValue p = patterns.get(k);
            if (p.ignoreCase() == folded) {
                Integer first = positions.putIfAbsent(Ascii.key(p.text(), folded), k);
                if (first != null) {
                    equal.add(first, k);
                }
            }
        }
        equal.built();
    }

    @Override
    public int find(Sample smp) {
        return (int) findLive(smp, Holes.NONE);
    }

    @Override
    public long findLive(Sample smp, Holes holes) {
        AsciiString s = smp.ascii();
        Integer k = positions.get(folded ? s.toLowerCase() : s);
        return k == null ? -1 : equal.live(k, holes);
    }

    @Override
    public boolean skipsHoles() {
        return true;
    }
}
