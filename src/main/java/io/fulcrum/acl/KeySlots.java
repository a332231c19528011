package io.fulcrum.acl;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * The entries of a pattern set by key, so that "del map", "set map" and the set-map action find theirs without a scan
 * of millions: an open-addressing table of slot numbers (4 bytes a slot, two thirds full at most), the key read from
 * the slot's entry. A removed slot stays in the table until it is rebuilt (it then reads as no entry).
 */
final class KeySlots {
    private static final int FREE = -1;

    private final IntFunction<PatternFile.Entry> entries;
    private int[] table;
    private int used;

    /** @param entries the entry of a slot, or null when removed */
    KeySlots(IntFunction<PatternFile.Entry> entries, int expected) {
        this.entries = entries;
        clear(expected);
    }

    /** Forgets every slot, for {@code expected} of them to come. */
    void clear(int expected) {
        table = new int[Math.max(16, Integer.highestOneBit(Math.max(1, expected + (expected >> 1))) << 1)];
        Arrays.fill(table, FREE);
        used = 0;
    }

    /** Records that {@code slot} holds an entry of key {@code key}; the table grows from {@code slots} when 2/3 full. */
    void add(int slot, String key, int slots) {
        if (3L * (used + 1) > 2L * table.length) {
            int[] old = table;
            table = new int[old.length * 2];
            Arrays.fill(table, FREE);
            used = 0;
            for (int s = 0; s < slots; s++) {
                PatternFile.Entry e = entries.apply(s);
                if (e != null && s != slot) {
                    put(s, e.key());
                }
            }
        }
        put(slot, key);
    }

    private void put(int slot, String key) {
        int mask = table.length - 1;
        int i = spread(key.hashCode()) & mask;
        while (table[i] != FREE) {
            i = i + 1 & mask;
        }
        table[i] = slot;
        used++;
    }

    /** Calls {@code each} with the slots whose entry has key {@code key}, in no order, until it returns false. */
    void forEach(String key, IntPredicate each) {
        int mask = table.length - 1;
        for (int i = spread(key.hashCode()) & mask; table[i] != FREE; i = i + 1 & mask) {
            PatternFile.Entry e = entries.apply(table[i]);
            if (e != null && e.key().equals(key) && !each.test(table[i])) {
                return;
            }
        }
    }

    private static int spread(int h) {
        return h * 0x9e3779b9 >>> 7 ^ h;
    }
}
