package io.fulcrum.http;

import io.fulcrum.sample.Sample;
import io.netty.util.AsciiString;

/**
 * Walks the values of the header fields named {@code name} (of every field when the name is empty), in order,
 * as HAProxy's header fetches see them: each field's whole value, or each element of its comma-separated
 * list (commas between double quotes do not separate), without the blanks around it. A list has one more
 * element than it has separating commas: "a, , b" has three, "a," two, an empty value one.
 */
final class FieldCursor {
    private final HttpHeaders headers;
    private final CharSequence name;
    private final boolean split;
    private int slot;
    private AsciiString value;
    /** Where the next element of the current value starts, or -1 when the value has no more. */
    private int next;
    private int start;
    private int end;

    FieldCursor(HttpHeaders headers, CharSequence name, boolean split) {
        this.headers = headers;
        this.name = name;
        this.split = split;
        rewind();
    }

    /** Back before the first value. */
    void rewind() {
        slot = -1;
        next = -1;
    }

    /** Moves to the next value; false when there is none. */
    boolean next() {
        while (next < 0) {
            slot = name.isEmpty() ? nextPresent(slot + 1) : headers.indexOf(name, slot + 1);
            if (slot < 0) {
                return false;
            }
            value = headers.value(slot);
            next = 0;
        }
        int length = value.length();
        int s = next;
        while (s < length && HeaderValues.isBlank(value.charAt(s))) {
            s++;
        }
        int e = split ? HeaderValues.end(value, s, length, ',') : length;
        next = e < length ? e + 1 : -1;
        start = s;
        end = trimEnd(value, s, e);
        return true;
    }

    /**
     * Moves to occurrence {@code occ}: the occ-th value from the first when positive, the -occ-th from the last when
     * negative, the last one when 0; false when there are not that many.
     */
    boolean seek(long occ) {
        if (occ == 0 || occ == -1) {
            return last();
        }
        if (occ < 0) {
            long count = count();
            rewind();
            occ = count + occ + 1;
            if (occ <= 0) {
                return false;
            }
        }
        for (long i = 0; i < occ; i++) {
            if (!next()) {
                return false;
            }
        }
        return true;
    }

    /** Moves to the last value, in one pass (the usual case: {@code hdr(host)}); false when there is none. */
    private boolean last() {
        AsciiString v = null;
        int s = 0;
        int e = 0;
        while (next()) {
            v = value;
            s = start;
            e = end;
        }
        value = v;
        start = s;
        end = e;
        return v != null;
    }

    /** The number of values not visited yet: all of them on a new cursor. */
    long count() {
        long n = 0;
        while (next()) {
            n++;
        }
        return n;
    }

    /** The current value, as a view on the header bytes. */
    boolean str(Sample out) {
        return out.setStr(value.array(), value.arrayOffset() + start, end - start);
    }

    /** The current field's whole value. */
    AsciiString fieldValue() {
        return value;
    }

    /** Where the current value starts in {@link #fieldValue()}. */
    int start() {
        return start;
    }

    /** Where the current value ends in {@link #fieldValue()}. */
    int end() {
        return end;
    }

    private int nextPresent(int from) {
        for (int i = from; i < headers.slots(); i++) {
            if (!headers.removed(i)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code to}, moved back over the blanks that end {@code v[from, to)}. */
    static int trimEnd(CharSequence v, int from, int to) {
        while (to > from && HeaderValues.isBlank(v.charAt(to - 1))) {
            to--;
        }
        return to;
    }
}
