package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/**
 * A use's index as {@link PatternFile} keeps it while it changes in place: the base, compiled from the entries at the
 * last rebuild (positions 0 to {@code baseSize - 1}, the removed ones in {@code baseHoles}), and the index of the
 * entries added since (positions from {@code baseSize}), or null. The added entries come after the base's: of two hits
 * of equal rank the base's is chosen, as the first in order.
 */
public final class LayeredIndex implements PatternIndex {
    private final PatternIndex base;
    private final Holes baseHoles;
    private final PatternIndex added;
    private final Holes addedHoles;
    private final int baseSize;

    public LayeredIndex(PatternIndex base, Holes baseHoles, PatternIndex added, Holes addedHoles, int baseSize) {
        this.base = base;
        this.baseHoles = baseHoles;
        this.added = added;
        this.addedHoles = addedHoles;
        this.baseSize = baseSize;
    }

    /** An index that cannot skip holes is the whole: it is rebuilt at every change. */
    public static PatternIndex of(PatternIndex base, Holes baseHoles, PatternIndex added, Holes addedHoles, int baseSize) {
        return base.skipsHoles() ? new LayeredIndex(base, baseHoles, added, addedHoles, baseSize) : base;
    }

    @Override
    public int find(Sample smp) {
        long b = base.findLive(smp, baseHoles);
        if (added != null) {
            long a = added.findLive(smp, addedHoles);
            if (a >= 0 && (b < 0 || a >>> 32 > b >>> 32)) {
                return baseSize + (int) a;
            }
        }
        return (int) b;
    }

    /** The base's position {@code k} is below {@code baseSize}; the added index's are after it. */
    public int baseSize() {
        return baseSize;
    }
}
