package io.fulcrum.peers;

import java.util.HashMap;
import java.util.Map;

/**
 * The server keys a session sent to its peer, as HAProxy's TX dictionary cache keeps them: {@link #SIZE} slots filled
 * in turn (the oldest is replaced once all are taken), so that a key already sent goes as its slot's id alone.
 * Owned by the session's event loop.
 */
final class TxDictionary {
    /** HAProxy's PEER_STKT_CACHE_MAX_ENTRIES, per session on both sides. */
    static final int SIZE = 128;

    private final String[] slots = new String[SIZE];
    private final Map<String, Integer> index = new HashMap<>();
    private int next;

    /** The slot of {@code key} when it was sent before (the peer has it), else -1. */
    int slotOf(String key) {
        Integer cached = index.get(key);
        return cached == null ? -1 : cached;
    }

    /** Puts {@code key}, about to be sent whole, in the next slot (replacing the oldest key); returns the slot. */
    int add(String key) {
        int slot = next;
        if (slots[slot] != null) {
            index.remove(slots[slot]);
        }
        slots[slot] = key;
        index.put(key, slot);
        next = (next + 1) % SIZE;
        return slot;
    }

    /** The key in slot {@code i}, or null while it is free. */
    String at(int i) {
        return slots[i];
    }
}
