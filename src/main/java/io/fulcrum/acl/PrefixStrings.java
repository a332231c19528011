package io.fulcrum.acl;

import io.fulcrum.sample.Sample;
import io.netty.util.AsciiString;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prefix patterns ("beg"), those with "-i" or those without, in one hash table per length: the longest
 * pattern that begins the sample is chosen (then the first of equal ones), as in HAProxy's prefix tree.
 */
final class PrefixStrings implements PatternIndex {
    private final int[] lengths;
    private final List<Map<AsciiString, Integer>> tables = new ArrayList<>();
    private final EqualKeys equal;
    private final boolean folded;

    PrefixStrings(List<PatternValue> patterns, boolean folded) {
        this.folded = folded;
        TreeMap<Integer, Map<AsciiString, Integer>> byLength = new TreeMap<>();
        equal = new EqualKeys(patterns.size());
        for (int k = 0; k < patterns.size(); k++) {
            PatternValue p = patterns.get(k);
            if (p.ignoreCase() == folded) {
                Integer first = byLength.computeIfAbsent(p.text().length(), n -> new HashMap<>()).putIfAbsent(Ascii.key(p.text(), folded), k);
                if (first != null) {
                    equal.add(first, k);
                }
            }
        }
        equal.built();
        lengths = new int[byLength.size()];
        int i = 0;
        for (Map.Entry<Integer, Map<AsciiString, Integer>> e : byLength.descendingMap().entrySet()) {
            lengths[i++] = e.getKey();
            tables.add(e.getValue());
        }
    }

    @Override
    public int find(Sample smp) {
        return (int) findLive(smp, Holes.NONE);
    }

    /** Ranked by the prefix's length: a longer one added later wins over the base's. */
    @Override
    public long findLive(Sample smp, Holes holes) {
        AsciiString s = folded ? smp.ascii().toLowerCase() : smp.ascii();
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] <= s.length()) {
                Integer k = tables.get(i).get(s.subSequence(0, lengths[i], false));
                int live = k == null ? -1 : equal.live(k, holes);
                if (live >= 0) {
                    return PatternIndex.ranked(lengths[i], live);
                }
            }
        }
        return -1;
    }

    @Override
    public boolean skipsHoles() {
        return true;
    }
}
