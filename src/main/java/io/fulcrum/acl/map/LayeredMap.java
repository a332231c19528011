package io.fulcrum.acl.map;

import io.fulcrum.acl.Holes;
import io.fulcrum.acl.LayeredIndex;
import io.fulcrum.acl.PatternIndex;
import io.fulcrum.sample.Sample;

/**
 * A map changed in place ({@link io.fulcrum.acl.PatternFile}): the lines compiled at the last rebuild, some removed
 * since, and the tiers of those added since; a lookup takes the line {@link LayeredIndex} chooses and that line's
 * value, in the layer that has it.
 */
final class LayeredMap implements MapTable {
    private final IndexedMap[] layers;
    private final LayeredIndex keys;

    private LayeredMap(IndexedMap[] layers, LayeredIndex keys) {
        this.layers = layers;
        this.keys = keys;
    }

    /** A table whose keys cannot skip holes ("map_regm") is the whole: it is rebuilt at every change. */
    static MapTable of(PatternIndex[] layers, Holes[] holes, int[] starts) {
        if (!(layers[0] instanceof IndexedMap b) || !b.skipsHoles()) {
            return (MapTable) layers[0];
        }
        IndexedMap[] maps = new IndexedMap[layers.length];
        for (int i = 0; i < maps.length; i++) {
            maps[i] = (IndexedMap) layers[i];
        }
        return new LayeredMap(maps, new LayeredIndex(layers, holes, starts));
    }

    @Override
    public int find(Sample smp) {
        return keys.find(smp);
    }

    @Override
    public boolean convert(Sample smp, Sample fallback) {
        long hit = keys.findLayered(smp);
        return hit < 0 ? layers[0].copy(-1, smp, fallback) : layers[(int) (hit >>> 32)].copy((int) hit, smp, fallback);
    }
}
