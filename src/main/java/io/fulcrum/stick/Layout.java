package io.fulcrum.stick;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each stored data type sits in an entry's longs, with its element count (the array types) and its rate
 * period: what {@code store} declared, fixed when the table is.
 */
final class Layout {
    private final int[] offset = new int[DataType.values().length];
    private final int[] count = new int[DataType.values().length];
    private final long[] period = new long[DataType.values().length];
    private int width;

    Layout() {
        java.util.Arrays.fill(offset, -1);
    }

    /** Declares {@code type} with {@code n} elements (1 for the scalar types) and its rate period in ms (0 if none). */
    void add(DataType type, int n, long ratePeriod) {
        offset[type.ordinal()] = -2; // declared: placed by done()
        count[type.ordinal()] = n;
        period[type.ordinal()] = ratePeriod;
    }

    boolean has(DataType type) {
        return offset[type.ordinal()] != -1;
    }

    /** Places the declared types; the entry's width is known after this. */
    void done() {
        width = 0;
        for (DataType t : DataType.values()) {
            if (has(t) && t.kind() != DataType.Kind.DICT) {
                offset[t.ordinal()] = width;
                width += t.width() * count[t.ordinal()];
            }
        }
    }

    int width() {
        return width;
    }

    /**
     * The offset of element {@code idx} of {@code type}, or -1 when the table does not store it. A legacy type
     * (gpc0, gpt0...) that is not stored itself is read in the array holding it (see {@link DataType#array()}).
     */
    int offset(DataType type, int idx) {
        int o = offset[type.ordinal()];
        if (o == -1 && type.array() != null) {
            return offset(type.array(), type.arrayIndex());
        }
        return o < 0 || idx < 0 || idx >= count[type.ordinal()] ? -1 : o + idx * type.width();
    }

    int count(DataType type) {
        return count[type.ordinal()];
    }

    /** A rate's period in ms (a legacy rate's is its array's when only the array is stored). */
    long period(DataType type) {
        return !has(type) && type.array() != null ? period[type.array().ordinal()] : period[type.ordinal()];
    }

    List<DataType> stored() {
        List<DataType> l = new ArrayList<>();
        for (DataType t : DataType.values()) {
            if (has(t)) {
                l.add(t);
            }
        }
        return l;
    }
}
