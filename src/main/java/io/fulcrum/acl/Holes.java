package io.fulcrum.acl;

/**
 * The positions of a compiled index whose entries were removed after it was built: lookups skip them, so that a
 * "del map" marks one bit instead of rebuilding the index. Written by the thread that changes the pattern set (under
 * its lock), read by the event loops without one: a bit is an int's, written whole, and the change is published by
 * the volatile write that follows it ({@link PatternFile}).
 */
public final class Holes {
    /** No position removed. */
    public static final Holes NONE = new Holes(0);

    private final int[] bits;

    Holes(int positions) {
        bits = new int[(positions + 31) >>> 5];
    }

    /** True when the entry at {@code position} was removed. */
    public boolean has(int position) {
        int word = position >>> 5;
        return word < bits.length && (bits[word] & 1 << position) != 0;
    }

    void add(int position) {
        bits[position >>> 5] |= 1 << position;
    }
}
