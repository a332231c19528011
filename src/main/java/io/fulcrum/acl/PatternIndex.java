package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/**
 * Compiled patterns that say which of them a sample matches, so that a map can return the value of
 * that line and an ACL can test that there is one. Which pattern is chosen when several match is the
 * matching method's: the first in order for lists, the longest prefix for "beg" and "ip".
 */
@FunctionalInterface
public interface PatternIndex {
    /** The position (in the order the patterns were given) of the pattern chosen for {@code smp}, or -1. */
    int find(Sample smp);

    /** This index, then {@code other} when this one finds nothing (patterns with and without "-i"). */
    default PatternIndex or(PatternIndex other) {
        return smp -> {
            int k = find(smp);
            return k >= 0 ? k : other.find(smp);
        };
    }
}
