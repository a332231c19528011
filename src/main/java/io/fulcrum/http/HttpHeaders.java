package io.fulcrum.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;

import java.util.Arrays;

/**
 * The header fields of a message, in order, as views into one byte array: the parser copies a message's
 * head once and indexes it, so no header becomes a String unless someone asks. Rewrites append to the
 * same array; removed fields are marked, not moved. Names compare case-insensitively.
 */
public final class HttpHeaders {
    private byte[] bytes;
    private int used;
    /** Per field: name offset, name length (-1 once removed), value offset, value length. */
    private int[] index;
    private int count;
    private int live;
    /** HTX bytes of the present fields (a block each, name and value), or -1 until {@link #htxSize()} is asked for. */
    private int htxSize = -1;

    /** Headers indexing {@code bytes} (owned from now on); {@code used} bytes of it are taken. */
    public HttpHeaders(byte[] bytes, int used) {
        this.bytes = bytes;
        this.used = used;
        this.index = new int[4 * 16];
    }

    /**
     * Headers indexing {@code bytes} ({@code used} bytes of it taken) with the {@code count} fields of
     * {@code index}, all present (as the parser builds them: 4 ints per field, name offset, name length, value
     * offset, value length; room after them for fields to come): both are owned from now on.
     */
    public HttpHeaders(byte[] bytes, int used, int[] index, int count) {
        if (index.length < 4 * count) {
            throw new IllegalArgumentException(count + " fields in an index of " + index.length);
        }
        this.bytes = bytes;
        this.used = used;
        this.index = index;
        this.count = count;
        this.live = count;
    }

    public HttpHeaders() {
        this(new byte[256], 0);
    }

    /** The byte array the fields index: the head's bytes, then the bytes of added fields. */
    byte[] bytes() {
        return bytes;
    }

    /** Adds a field indexing bytes already in the array (used by the parser). */
    public void addIndexed(int nameOffset, int nameLength, int valueOffset, int valueLength) {
        if (4 * (count + 1) > index.length) {
            index = Arrays.copyOf(index, index.length * 2);
        }
        int i = 4 * count++;
        index[i] = nameOffset;
        index[i + 1] = nameLength;
        index[i + 2] = valueOffset;
        index[i + 3] = valueLength;
        live++;
        if (htxSize >= 0) {
            htxSize += HttpHead.HTX_BLOCK + nameLength + valueLength;
        }
    }

    /** Appends {@code name: value} at the end. */
    public void add(CharSequence name, CharSequence value) {
        int n = append(name);
        int v = append(value);
        addIndexed(n, name.length(), v, value.length());
    }

    /** Replaces every field named {@code name} by one field at the place of the first, or adds it at the end. */
    public void set(CharSequence name, CharSequence value) {
        int first = indexOf(name, 0);
        if (first < 0) {
            add(name, value);
            return;
        }
        setValue(first, value);
        for (int i = indexOf(name, first + 1); i >= 0; i = indexOf(name, i + 1)) {
            remove(i);
        }
    }

    /** Replaces the value of field {@code i}. */
    public void setValue(int i, CharSequence value) {
        int v = append(value);
        if (htxSize >= 0 && index[4 * i + 1] >= 0) {
            htxSize += value.length() - index[4 * i + 3];
        }
        index[4 * i + 2] = v;
        index[4 * i + 3] = value.length();
    }

    /** Removes field {@code i}; indexes of the other fields do not change. */
    public void remove(int i) {
        if (index[4 * i + 1] >= 0) {
            if (htxSize >= 0) {
                htxSize -= HttpHead.HTX_BLOCK + index[4 * i + 1] + index[4 * i + 3];
            }
            index[4 * i + 1] = -1;
            live--;
        }
    }

    /** Removes every field named {@code name}; returns how many were removed. */
    public int removeAll(CharSequence name) {
        int n = 0;
        for (int i = indexOf(name, 0); i >= 0; i = indexOf(name, i + 1)) {
            remove(i);
            n++;
        }
        return n;
    }

    /** Slots, removed fields included: iterate {@code 0 <= i < slots()} and skip {@link #removed(int)} ones. */
    public int slots() {
        return count;
    }

    /** Fields present. */
    public int size() {
        return live;
    }

    public boolean removed(int i) {
        return index[4 * i + 1] < 0;
    }

    /** The name of field {@code i}, a view on the bytes. */
    public AsciiString name(int i) {
        return new AsciiString(bytes, index[4 * i], index[4 * i + 1], false);
    }

    /** The value of field {@code i}, a view on the bytes. */
    public AsciiString value(int i) {
        return new AsciiString(bytes, index[4 * i + 2], index[4 * i + 3], false);
    }

    /** The first field named {@code name} at or after slot {@code from}, or -1. */
    public int indexOf(CharSequence name, int from) {
        int len = name.length();
        if (len == 0) {
            return indexOfEmpty(from);
        }
        // The length, then the first character, rule out most fields before a whole comparison.
        int first = lower(name.charAt(0));
        int[] index = this.index;
        byte[] bytes = this.bytes;
        for (int i = from; i < count; i++) {
            if (index[4 * i + 1] == len) {
                int off = index[4 * i];
                if (lower(bytes[off]) == first && equalsIgnoreCase(off, name)) {
                    return i;
                }
            }
        }
        return -1;
    }

    private int indexOfEmpty(int from) {
        for (int i = from; i < count; i++) {
            if (index[4 * i + 1] == 0) {
                return i;
            }
        }
        return -1;
    }

    public boolean contains(CharSequence name) {
        return indexOf(name, 0) >= 0;
    }

    /** The value of the first field named {@code name}, or null. */
    public AsciiString get(CharSequence name) {
        int i = indexOf(name, 0);
        return i < 0 ? null : value(i);
    }

    /** Writes {@code name: value CRLF} for every field present (HTTP/1 form). */
    public void writeTo(ByteBuf out) {
        writeFields(0, count, out);
    }

    /**
     * Writes the fields present among slots {@code [from, to)} as {@link #writeField} does each. Fields that lie
     * in the bytes as they are written, one after the other ({@code name: value CRLF}: most fields of a parsed
     * head) are copied a run at a time.
     */
    public void writeFields(int from, int to, ByteBuf out) {
        byte[] b = bytes;
        int[] index = this.index;
        int runStart = 0;
        int runEnd = -1;
        for (int i = from; i < to; i++) {
            int t = 4 * i;
            int nameLength = index[t + 1];
            if (nameLength < 0) {
                continue;
            }
            int name = index[t];
            int colon = name + nameLength;
            int end = index[t + 2] + index[t + 3];
            boolean asWritten = index[t + 2] == colon + 2 && end + 2 <= b.length && b[colon] == ':'
                    && b[colon + 1] == ' ' && b[end] == '\r' && b[end + 1] == '\n';
            if (asWritten && name == runEnd) {
                runEnd = end + 2;
                continue;
            }
            if (runEnd > runStart) {
                out.writeBytes(b, runStart, runEnd - runStart);
            }
            if (asWritten) {
                runStart = name;
                runEnd = end + 2;
            } else {
                runEnd = -1;
                writeField(i, out);
            }
        }
        if (runEnd > runStart) {
            out.writeBytes(b, runStart, runEnd - runStart);
        }
    }

    /** Writes field {@code i} as {@code name: value CRLF} (HTTP/1 form), to skip some fields without a copy. */
    public void writeField(int i, ByteBuf out) {
        out.writeBytes(bytes, index[4 * i], index[4 * i + 1]);
        out.writeShort(':' << 8 | ' ');
        out.writeBytes(bytes, index[4 * i + 2], index[4 * i + 3]);
        out.writeShort('\r' << 8 | '\n');
    }

    /** Whether field {@code i} (present) is named {@code name}, case-insensitively, without making a view. */
    public boolean nameIs(int i, CharSequence name) {
        return index[4 * i + 1] == name.length() && equalsIgnoreCase(index[4 * i], name);
    }

    /**
     * The fields' size in HAProxy's HTX form (see {@link HttpHead#htxSize()}): computed once, then kept up to date by
     * every change, so that messages no rewrite checks never pay for it.
     */
    public int htxSize() {
        if (htxSize < 0) {
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (index[4 * i + 1] >= 0) {
                    n += HttpHead.HTX_BLOCK + index[4 * i + 1] + index[4 * i + 3];
                }
            }
            htxSize = n;
        }
        return htxSize;
    }

    /** The fields' names and values, their HTX data (see {@link HttpHead#htxData()}): {@link #htxSize()} without the blocks. */
    public int htxData() {
        return htxSize() - HttpHead.HTX_BLOCK * live;
    }

    /** Bytes {@link #writeTo} writes. */
    public int encodedLength() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (index[4 * i + 1] >= 0) {
                n += index[4 * i + 1] + index[4 * i + 3] + 4;
            }
        }
        return n;
    }

    private boolean equalsIgnoreCase(int off, CharSequence name) {
        byte[] bytes = this.bytes;
        if (name instanceof String s) {
            // The usual argument: a constant, compared without going through the interface.
            for (int k = 0; k < s.length(); k++) {
                int a = bytes[off + k];
                int b = s.charAt(k);
                if (a != b && lower(a) != lower(b)) {
                    return false;
                }
            }
            return true;
        }
        for (int k = 0; k < name.length(); k++) {
            int a = bytes[off + k];
            int b = name.charAt(k);
            if (a != b && lower(a) != lower(b)) {
                return false;
            }
        }
        return true;
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    private int append(CharSequence s) {
        int len = s.length();
        if (used + len > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + len));
        }
        int off = used;
        for (int k = 0; k < len; k++) {
            bytes[used++] = (byte) s.charAt(k);
        }
        return off;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (!removed(i)) {
                sb.append(name(i)).append(": ").append(value(i)).append('\n');
            }
        }
        return sb.toString();
    }
}
