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
    private final boolean folded;

    PrefixStrings(List<PatternValue> patterns, boolean folded) {
        this.folded = folded;
        TreeMap<Integer, Map<AsciiString, Integer>> byLength = new TreeMap<>();
        for (int k = 0; k < patterns.size(); k++) {
            PatternValue p = patterns.get(k);
            if (p.ignoreCase() == folded) {
                byLength.computeIfAbsent(p.text().length(), n -> new HashMap<>()).putIfAbsent(Ascii.key(p.text(), folded), k);
            }
        }
        lengths = new int[byLength.size()];
        int i = 0;
        for (Map.Entry<Integer, Map<AsciiString, Integer>> e : byLength.descendingMap().entrySet()) {
            lengths[i++] = e.getKey();
            tables.add(e.getValue());
        }
    }

    @Override
    public int find(Sample smp) {
        AsciiString s = folded ? smp.ascii().toLowerCase() : smp.ascii();
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] <= s.length()) {
                Integer k = tables.get(i).get(s.subSequence(0, lengths[i], false));
                if (k != null) {
                    return k;
                }
            }
        }
        return -1;
    }
}
