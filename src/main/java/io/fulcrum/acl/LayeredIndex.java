package io.fulcrum.acl;

import io.fulcrum.sample.Sample;

/**
 * A use's index as {@link PatternFile} keeps it while it changes in place: layers, each an index of some entries with
 * the removed ones among them ({@link Holes}). The first layer is the base, compiled from the entries at the last
 * rebuild (positions 0 to its size - 1); the others are the tiers of the entries added since, oldest first, each
 * numbering its entries from its start. Of two hits of equal rank the earlier layer's is chosen, as the first in order.
 */
public final class LayeredIndex implements PatternIndex {
    private final PatternIndex[] layers;
    private final Holes[] holes;
    private final int[] starts;

    /**
     * @param layers the base, then the tiers of added entries, oldest first
     * @param holes  each layer's removed positions
     * @param starts each layer's first position (0 for the base)
     */
    public LayeredIndex(PatternIndex[] layers, Holes[] holes, int[] starts) {
        this.layers = layers;
        this.holes = holes;
        this.starts = starts;
    }

    /** An index that cannot skip holes is the whole: it is rebuilt at every change. */
    public static PatternIndex of(PatternIndex[] layers, Holes[] holes, int[] starts) {
        return layers[0].skipsHoles() ? new LayeredIndex(layers, holes, starts) : layers[0];
    }

    @Override
    public int find(Sample smp) {
        long hit = findLayered(smp);
        return hit < 0 ? -1 : starts[(int) (hit >>> 32)] + (int) hit;
    }

    /** The layer of the chosen pattern in the high 32 bits and its position in that layer in the low ones, or -1. */
    public long findLayered(Sample smp) {
        int layer = -1;
        long best = -1;
        for (int i = 0; i < layers.length; i++) {
            long hit = layers[i].findLive(smp, holes[i]);
            if (hit >= 0 && (best < 0 || hit >>> 32 > best >>> 32)) {
                layer = i;
                best = hit;
            }
        }
        return layer < 0 ? -1 : (long) layer << 32 | best & 0xffffffffL;
    }
}
