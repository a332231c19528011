package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHeaders;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * Reads a header section line by line: a message head (start line, then fields) or the trailers of a chunked
 * body. Complete lines are copied once into a byte array that becomes the {@link HttpHeaders}' own, and are
 * checked as soon as they are complete, so that garbage is refused without waiting for the end of the head.
 * A partial line stays in the input; only how far it was scanned is remembered.
 */
final class SectionReader {

    /** Parses the start line of a head; returns true when the head ends with it (an HTTP/0.9 request). */
    interface StartLineParser {
        boolean parse(byte[] b, int off, int end, long position) throws H1Exception;
    }

    /** Room left after the head for the fields that rewrites add, so that the first ones do not copy it. */
    private static final int SPARE = 128;
    private static final int FIRST_SIZE = 512;

    private final boolean hasStartLine;
    private final int maxBytes;
    private final int maxFields;
    private final int errorStatus;
    private final boolean lenientLf;
    private final int nameClass;
    /** Scratch: the LF of each complete line found by one call. */
    private final int[] ends;

    private byte[] bytes;
    private int used;
    /** Per field: name offset, name length (-1 once dropped), value offset, value length. */
    private int[] table = new int[4 * 16];
    private int fields;
    private int lines;
    /** Bytes after the input's reader index already scanned, with no LF among them. */
    private int pending;
    /** Leading empty lines consumed before a start line. */
    private int skipped;
    /** Bytes consumed from the input, empty lines included. */
    private long consumed;
    /** Message offset of the section's first byte. */
    private long base;

    SectionReader(boolean hasStartLine, H1Limits limits, int errorStatus, boolean lenientLf, boolean laxNames) {
        this.hasStartLine = hasStartLine;
        this.maxBytes = limits.maxHead();
        this.maxFields = limits.maxFields();
        this.errorStatus = errorStatus;
        this.lenientLf = lenientLf;
        this.nameClass = laxNames ? Chars.LAX_NAME : Chars.TOKEN;
        this.ends = new int[maxFields + 2];
    }

    /** Starts a new section whose first byte is at {@code base} in its message. */
    void reset(long base) {
        this.base = base;
        bytes = null;
        used = 0;
        fields = 0;
        lines = 0;
        pending = 0;
        skipped = 0;
        consumed = 0;
    }

    /** No byte of the section seen yet, leading empty lines aside. */
    boolean untouched() {
        return lines == 0 && pending == 0;
    }

    /** The message offset of the first byte not consumed. */
    long end() {
        return base + consumed;
    }

    /** The message offset of the first byte not scanned yet. */
    long seen() {
        return base + consumed + pending;
    }

    /**
     * Consumes the complete lines of {@code in}, and the empty line ending the section if it is there
     * (then returns true). {@code start} parses the start line of a head.
     */
    boolean read(ByteBuf in, StartLineParser start) throws H1Exception {
        int r = in.readerIndex();
        boolean done = consume(in, start);
        consumed += in.readerIndex() - r;
        return done;
    }

    private boolean consume(ByteBuf in, StartLineParser start) throws H1Exception {
        int w = in.writerIndex();
        int copyFrom = in.readerIndex();
        int lineStart = copyFrom;
        int from = copyFrom + pending;
        int found = 0;
        int endOfSection = -1;
        // An error seen while scanning is raised after the lines before it are checked: first error first.
        String scanError = null;
        long scanErrorPosition = 0;
        int maxLines = maxFields + (hasStartLine ? 1 : 0);
        for (int lf; (lf = in.indexOf(from, w, (byte) '\n')) >= 0; from = lineStart = lf + 1) {
            int len = lf - lineStart;
            if (len == 0 || len == 1 && in.getByte(lineStart) == '\r') {
                boolean leading = hasStartLine && lines == 0 && found == 0;
                if (len == 0 && !lenientLf) {
                    scanError = "bare LF";
                    scanErrorPosition = position(lineStart - copyFrom + used);
                    if (leading) {
                        throw error(scanError, scanErrorPosition);
                    }
                    break;
                }
                if (leading) {
                    // RFC 9112 2.2: empty lines before a request line are ignored (HAProxy: any number).
                    skipped += len + 1;
                    copyFrom = lf + 1;
                    checkSize(0);
                    continue;
                }
                endOfSection = lf + 1;
                break;
            }
            if (lines + found == maxLines) {
                scanError = "too many header fields";
                scanErrorPosition = position(lineStart - copyFrom + used);
                break;
            }
            ends[found++] = lf;
        }
        int copyEnd = found == 0 ? copyFrom : ends[found - 1] + 1;
        int copied = copyEnd - copyFrom;
        checkSize(copied + (endOfSection >= 0 ? endOfSection - copyEnd : w - copyEnd));
        if (copied > 0) {
            ensureRoom(copied, endOfSection >= 0);
            in.getBytes(copyFrom, bytes, used, copied);
        }
        int a = used;
        int prev = copyFrom;
        for (int k = 0; k < found; k++) {
            int lineLength = ends[k] + 1 - prev;
            if (line(a, a + lineLength - 1, start)) {
                // The head ended with its start line (HTTP/0.9): what follows belongs to the next message.
                used = a + lineLength;
                in.readerIndex(ends[k] + 1);
                pending = 0;
                return true;
            }
            a += lineLength;
            prev = ends[k] + 1;
        }
        if (scanError != null) {
            throw error(scanError, scanErrorPosition);
        }
        used += copied;
        if (endOfSection >= 0) {
            in.readerIndex(endOfSection);
            pending = 0;
            return true;
        }
        in.readerIndex(copyEnd);
        pending = w - copyEnd;
        return false;
    }

    private void checkSize(int more) throws H1Exception {
        if ((long) skipped + used + more > maxBytes) {
            throw error("header section too large", base + maxBytes);
        }
    }

    private void ensureRoom(int more, boolean last) {
        int need = used + more + (last ? SPARE : 0);
        if (bytes == null) {
            bytes = new byte[last ? need : Math.max(FIRST_SIZE, 2 * need)];
        } else if (need > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(need, Math.min(2 * bytes.length, maxBytes + SPARE)));
        }
    }

    /** Checks the line at {@code a} (array offset) whose LF is at {@code lf}; true if the head ends there. */
    private boolean line(int a, int lf, StartLineParser start) throws H1Exception {
        int end = lf;
        if (bytes[end - 1] == '\r') {
            end--;
        } else if (!lenientLf) {
            throw error("bare LF", position(lf));
        }
        boolean first = hasStartLine && lines == 0;
        lines++;
        if (first) {
            return start.parse(bytes, a, end, position(a));
        }
        field(a, end);
        return false;
    }

    private void field(int a, int end) throws H1Exception {
        byte[] b = bytes;
        if (Chars.isSpace(b[a])) {
            // RFC 9112 5.2: obs-fold is refused (HAProxy unfolds it); so is whitespace before the first field.
            throw error(fields == 0 ? "whitespace before the first header field" : "obs-fold (line folding)",
                    position(a));
        }
        int i = a;
        while (i < end && Chars.is(b[i], nameClass)) {
            b[i] = Chars.lower(b[i]);
            i++;
        }
        if (i == end) {
            throw error("no colon in header field", position(i));
        }
        if (b[i] != ':') {
            // A space before the colon is refused even with accept-invalid: RFC 9112 5.1 says MUST.
            throw error(Chars.isSpace(b[i]) ? "whitespace between field name and colon"
                    : "invalid character in field name: " + Chars.describe(b[i]), position(i));
        }
        if (i == a) {
            throw error("empty field name", position(i));
        }
        int nameLength = i - a;
        i++;
        while (i < end && Chars.isSpace(b[i])) {
            i++;
        }
        int valueStart = i;
        while (i < end) {
            if (i + 8 <= end && Chars.eightFieldChars(b, i)) {
                i += 8;
            } else if (Chars.is(b[i], Chars.FIELD)) {
                i++;
            } else {
                throw error("invalid character in field value: " + Chars.describe(b[i]), position(i));
            }
        }
        while (i > valueStart && Chars.isSpace(b[i - 1])) {
            i--;
        }
        add(a, nameLength, valueStart, i - valueStart);
    }

    private void add(int nameOffset, int nameLength, int valueOffset, int valueLength) {
        if (4 * (fields + 1) > table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        int t = 4 * fields++;
        table[t] = nameOffset;
        table[t + 1] = nameLength;
        table[t + 2] = valueOffset;
        table[t + 3] = valueLength;
    }

    // The fields, for the checks that follow the section (framing, Host): names are in lower case.

    byte[] bytes() {
        return bytes;
    }

    int fields() {
        return fields;
    }

    /** Leaves field {@code i} out of the headers {@link #build()} makes. */
    void drop(int i) {
        table[4 * i + 1] = -1;
    }

    /** Whether field {@code i} is named {@code lowerName}; never for a dropped field. */
    boolean nameIs(int i, byte[] lowerName) {
        int t = 4 * i;
        return table[t + 1] == lowerName.length && Arrays.equals(bytes, table[t], table[t] + table[t + 1],
                lowerName, 0, lowerName.length);
    }

    int valueOffset(int i) {
        return table[4 * i + 2];
    }

    int valueLength(int i) {
        return table[4 * i + 3];
    }

    /** Points the value of field {@code i} at other bytes of the section (a cleaned-up part of it). */
    void value(int i, int offset, int length) {
        table[4 * i + 2] = offset;
        table[4 * i + 3] = length;
    }

    /** The message offset of array offset {@code a}. */
    long position(int a) {
        return base + skipped + a;
    }

    H1Exception error(String reason, long position) {
        return new H1Exception(errorStatus, reason, position);
    }

    /** The headers over the section's bytes, which they own from now on. */
    HttpHeaders build() {
        HttpHeaders headers = new HttpHeaders(bytes == null ? new byte[SPARE] : bytes, used);
        for (int i = 0; i < fields; i++) {
            int t = 4 * i;
            if (table[t + 1] >= 0) {
                headers.addIndexed(table[t], table[t + 1], table[t + 2], table[t + 3]);
            }
        }
        bytes = null;
        return headers;
    }
}
