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
    private final boolean folded;

    ExactStrings(List<PatternValue> patterns, boolean folded) {
        this.folded = folded;
        for (int k = 0; k < patterns.size(); k++) {
            PatternValue p = patterns.get(k);
            if (p.ignoreCase() == folded) {
                positions.putIfAbsent(Ascii.key(p.text(), folded), k);
            }
        }
    }

    @Override
    public int find(Sample smp) {
        AsciiString s = smp.ascii();
        Integer k = positions.get(folded ? s.toLowerCase() : s);
        return k == null ? -1 : k;
    }
}
