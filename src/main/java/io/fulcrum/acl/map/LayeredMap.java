package io.fulcrum.acl.map;

import io.fulcrum.acl.Holes;
import io.fulcrum.acl.LayeredIndex;
import io.fulcrum.sample.Sample;

/**
 * A map changed in place ({@link io.fulcrum.acl.PatternFile}): the lines compiled at the last rebuild, some removed
 * since, and those added since; a lookup takes the line {@link LayeredIndex} chooses and that line's value.
 */
final class LayeredMap implements MapTable {
    private final IndexedMap base;
    private final IndexedMap added;
    private final LayeredIndex keys;

    private LayeredMap(IndexedMap base, IndexedMap added, LayeredIndex keys) {
        this.base = base;
        this.added = added;
        this.keys = keys;
    }

    /** A table whose keys cannot skip holes ("map_regm") is the whole: it is rebuilt at every change. */
    static MapTable of(MapTable base, Holes baseHoles, MapTable added, Holes addedHoles, int baseSize) {
        if (!(base instanceof IndexedMap b) || !b.skipsHoles()) {
            return base;
        }
        return new LayeredMap(b, (IndexedMap) added, new LayeredIndex(base, baseHoles, added, addedHoles, baseSize));
    }

    @Override
    public int find(Sample smp) {
        return keys.find(smp);
    }

    @Override
    public boolean convert(Sample smp, Sample fallback) {
        int k = keys.find(smp);
        int n = keys.baseSize();
        return k < n ? base.copy(k, smp, fallback) : added.copy(k - n, smp, fallback);
    }
}
