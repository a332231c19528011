package io.fulcrum.backend;

/**
 * A stream's priority in the queues packed in one long, its class in the high half and its offset (ms) in the
 * low half: streams keep it without an object each, and hand it to their {@link Ticket}.
 */
public final class QueuePriority {
    private QueuePriority() {
    }

    /** The class ({@code offset} false) or the offset of {@code packed}. */
    public static long get(long packed, boolean offset) {
        return offset ? (int) packed : packed >> 32;
    }

    /** {@code packed} with its class or offset replaced by {@code value} (within HAProxy's bounds). */
    public static long with(long packed, boolean offset, long value) {
        return offset ? packed & 0xffffffff00000000L | value & 0xffffffffL : value << 32 | packed & 0xffffffffL;
    }
}
