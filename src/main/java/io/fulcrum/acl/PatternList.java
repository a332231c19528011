package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/** Patterns tried one after the other: the first that matches is chosen (HAProxy's pattern lists). */
record PatternList(PatternMatcher[] patterns) implements PatternIndex {

    @Override
    public int find(Sample smp) {
        for (int k = 0; k < patterns.length; k++) {
            if (patterns[k].matches(smp)) {
                return k;
            }
        }
        return -1;
    }
}
