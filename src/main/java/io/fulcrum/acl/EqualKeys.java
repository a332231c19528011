package io.fulcrum.acl;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The later patterns equal to the first one of a hash table's key, in order: when that first is removed at run
 * time ({@link Holes}), the next equal one is chosen, as a rebuilt table would. Most sets have no equal patterns, and
 * then no array at all.
 */
final class EqualKeys {
    /** For a position, the next equal pattern's, or -1; null while no pattern repeats an earlier one. */
    private int[] next;
    /** While building: the last of each repeated first position's chain. */
    private Map<Integer, Integer> last;
    private final int positions;

    /** @param positions how many positions there are */
    EqualKeys(int positions) {
        this.positions = positions;
    }

    /** Records that the pattern at {@code position} equals the one at {@code first}, earlier. */
    void add(int first, int position) {
        if (next == null) {
            next = new int[positions];
            Arrays.fill(next, -1);
            last = new HashMap<>();
        }
        int tail = last.getOrDefault(first, first);
        next[tail] = position;
        last.put(first, position);
    }

    /** Building is over. */
    EqualKeys built() {
        last = null;
        return this;
    }

    /** The first position from {@code first} on, among those equal to it, that is not in {@code holes}; or -1. */
    int live(int first, Holes holes) {
        int k = first;
        while (k >= 0 && holes.has(k)) {
            k = next == null ? -1 : next[k];
        }
        return k;
    }
}
