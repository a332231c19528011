package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/** Patterns tried one after the other: the first that matches is chosen (HAProxy's pattern lists). */
record PatternList(PatternMatcher[] patterns) implements PatternIndex {

    @Override
    public int find(Sample smp) {
        return (int) findLive(smp, Holes.NONE);
    }

    @Override
    public long findLive(Sample smp, Holes holes) {
        for (int k = 0; k < patterns.length; k++) {
            if (!holes.has(k) && patterns[k].matches(smp)) {
                return k;
            }
        }
        return -1;
    }

    @Override
    public boolean skipsHoles() {
        return true;
    }
}
