package io.fulcrum.http;

import io.fulcrum.sample.Sample;
import io.netty.util.AsciiString;

/**
 * Walks the cookies named {@code name} (every cookie when the name is empty) in the Cookie or Set-Cookie
 * header values of a {@link FieldCursor}, as HAProxy does. A value is a list of {@code name=value} attributes
 * separated by ';', with blanks around names and values ignored and quoted strings kept whole in values;
 * attributes without '=' and those whose name starts with '$' are not cookies. In a Cookie header every
 * attribute is a cookie. In a Set-Cookie header only the first one is (the others are its Path, Expires...),
 * except that HAProxy, after a cookie it found, goes on reading the same value, and takes the next attribute
 * as a cookie: "x=1; y=2" counts two cookies, but a search for "y" finds none.
 */
final class CookieScan {
    private final FieldCursor cursor;
    private final boolean list;
    private final String name;
    /** Where to go on in the cursor's current value, or -1 to take the cursor's next value. */
    private int pos = -1;
    private AsciiString value;
    private int valueStart;
    private int valueEnd;

    /** @param list true for Cookie headers, where every attribute is a cookie */
    CookieScan(FieldCursor cursor, boolean list, String name) {
        this.cursor = cursor;
        this.list = list;
        this.name = name;
    }

    boolean anyName() {
        return name.isEmpty();
    }

    /** Moves to the next cookie; false when there is none. */
    boolean next() {
        while (true) {
            if (pos < 0) {
                if (!cursor.next()) {
                    return false;
                }
                pos = cursor.start();
            }
            pos = find(cursor.fieldValue(), pos, cursor.end());
            if (pos >= 0) {
                value = cursor.fieldValue();
                return true;
            }
        }
    }

    /** Moves to the last cookie; false when there is none. */
    boolean last() {
        AsciiString v = null;
        int s = 0;
        int e = 0;
        while (next()) {
            v = value;
            s = valueStart;
            e = valueEnd;
        }
        value = v;
        valueStart = s;
        valueEnd = e;
        return v != null;
    }

    /** The current cookie's value, as a view on the header bytes. */
    boolean str(Sample out) {
        return out.setStr(value.array(), value.arrayOffset() + valueStart, valueEnd - valueStart);
    }

    /** The header value holding the current cookie. */
    AsciiString fieldValue() {
        return value;
    }

    int valueStart() {
        return valueStart;
    }

    int valueEnd() {
        return valueEnd;
    }

    /**
     * The first cookie with the name in {@code v[from, to)}: sets its value's bounds and returns where its
     * attribute ends (where to go on from), or -1.
     */
    private int find(AsciiString v, int from, int to) {
        int p = from;
        // As HAProxy's loop (http_extract_cookie_value): an attribute is only read when more than the name
        // and its '=' remain from where it starts, blanks included, so "b=" alone or after "a=1;" is no cookie
        // b, while "a=1; b=" is.
        while (p + name.length() + 1 < to) {
            int att = p;
            while (att < to && HeaderValues.isBlank(v.charAt(att))) {
                att++;
            }
            int eq = att;
            int attEnd = att;
            while (eq < to) {
                char c = v.charAt(eq);
                if (c == '=' || c == ';' || list && c == ',') {
                    break;
                }
                eq++;
                if (!HeaderValues.isBlank(c)) {
                    attEnd = eq;
                }
            }
            int next = eq;
            boolean hasValue = eq < to && v.charAt(eq) == '=';
            if (hasValue) {
                int s = eq + 1;
                while (s < to && HeaderValues.isBlank(v.charAt(s))) {
                    s++;
                }
                next = HeaderValues.end(v, s, to, ';');
                valueStart = s;
                valueEnd = FieldCursor.trimEnd(v, s, next);
            }
            if (hasValue && (att == to || v.charAt(att) != '$')) {
                if (name.isEmpty() || attEnd - att == name.length() && v.regionMatches(att, name, 0, name.length())) {
                    return next;
                }
                if (!list) {
                    return -1;
                }
            }
            p = next + 1;
        }
        return -1;
    }
}
