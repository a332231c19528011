package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/**
 * Compiled patterns that say which of them a sample matches, so that a map can return the value of
 * that line and an ACL can test that there is one. Which pattern is chosen when several match is the
 * matching method's: the first in order for lists, the longest prefix for "beg" and "ip".
 *
 * <p>An index that can also skip removed positions ({@link #findLive}) is changed in place at run time: a removed
 * entry becomes a hole, an added one goes to the tiers of added entries, small indexes that lookups consult too ({@link LayeredIndex}).
 */
@FunctionalInterface
public interface PatternIndex {
    /** The position (in the order the patterns were given) of the pattern chosen for {@code smp}, or -1. */
    int find(Sample smp);

    /**
     * The pattern chosen for {@code smp} among those not in {@code holes}: its position in the low 32 bits, and in
     * the high ones its rank (0 or more) against a hit of another index of the same kind (a longer prefix ranks
     * higher; hits of equal rank are taken in order); -1 when none. Only for an index that {@link #skipsHoles()}.
     */
    default long findLive(Sample smp, Holes holes) {
        throw new UnsupportedOperationException();
    }

    /** True when {@link #findLive} is implemented: the index can then be changed in place. */
    default boolean skipsHoles() {
        return false;
    }

    /** Gives the entry at {@code position} another value (already checked): maps keep one for each entry. */
    default void revalue(int position, String value) {
    }

    /** A hit of {@link #findLive}: {@code position} ranked {@code rank}. */
    static long ranked(int rank, int position) {
        return (long) rank << 32 | position;
    }

    /** This index, then {@code other} when this one finds nothing (patterns with and without "-i"). */
    default PatternIndex or(PatternIndex other) {
        return smp -> {
            int k = find(smp);
            return k >= 0 ? k : other.find(smp);
        };
    }
}
