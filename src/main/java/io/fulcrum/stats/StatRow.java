package io.fulcrum.stats;

/** One line of {@code show stat}: a frontend, backend or server, and its fields' values (null: empty). */
public final class StatRow {
    private final ObjType type;
    private final int proxyId;
    private final int serverId;
    private final Object[] values = new Object[StatField.values().length];
    private final Counters counters;

    StatRow(ObjType type, int proxyId, int serverId, Counters counters) {
        this.type = type;
        this.proxyId = proxyId;
        this.serverId = serverId;
        this.counters = counters;
    }

    /** The counters the row was read from (the histograms are not fields). */
    Counters counters() {
        return counters;
    }

    public ObjType type() {
        return type;
    }

    public int proxyId() {
        return proxyId;
    }

    public int serverId() {
        return serverId;
    }

    StatRow put(StatField f, long value) {
        values[f.ordinal()] = value;
        return this;
    }

    StatRow put(StatField f, String value) {
        values[f.ordinal()] = value;
        return this;
    }

    /**
     * Empties the fields HAProxy shows only with {@code stats show-legends} on the page, or at level operator and
     * above on the CLI: the address, the cookie and the balancing algorithm.
     */
    StatRow withoutLegends() {
        values[StatField.ADDR.ordinal()] = null;
        values[StatField.COOKIE.ordinal()] = null;
        values[StatField.ALGO.ordinal()] = null;
        return this;
    }

    /** The value of {@code f}: a Long, a String, or null when empty. */
    public Object get(StatField f) {
        return values[f.ordinal()];
    }
}
