package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHeaders;
import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;

import java.util.Arrays;

/**
 * Reads a header section line by line: a message head (start line, then fields) or the trailers of a chunked
 * body. The input is copied into a working array a piece at a time (a body that follows the head in the same
 * input is copied at most one piece), where each line is checked as soon as it is complete, so that garbage is
 * refused without waiting for the end of the head; the section's bytes and field table are then copied, at
 * their exact size, into the {@link HttpHeaders}. A partial line stays in the input (its copy in the array is
 * kept, so that it is not copied again); only how far it was scanned is remembered. The fields that frame or
 * route a message are recognized once, as their line is checked ({@link #is}), for the rules that follow.
 * The working arrays serve again for the next section (unless a large one grew them).
 */
final class SectionReader {

    /** Parses the start line of a head; returns true when the head ends with it (an HTTP/0.9 request). */
    interface StartLineParser {
        /** {@code b[end]} is the line's CR or LF. */
        boolean parse(byte[] b, int off, int end, long position) throws H1Exception;
    }

    // What a field is, for the rules that follow the section (HeadRules): its name, recognized once.

    static final int OTHER = 0;
    static final int CONTENT_LENGTH = 1;
    static final int TRANSFER_ENCODING = 2;
    static final int HOST = 3;
    static final int CONNECTION = 4;
    static final int UPGRADE = 5;
    static final int WEBSOCKET_KEY = 6;
    static final int WEBSOCKET_ACCEPT = 7;

    /** Room left after the head for the fields that rewrites add, so that the first ones do not copy it. */
    private static final int SPARE = 128;
    /** Index slots in the working table at first. */
    private static final int FIRST_FIELDS = 16;
    /** Index slots left in the headers after the fields, for the ones that rewrites add. */
    private static final int SPARE_FIELDS = 4;
    /** A working array larger than this many bytes is not kept for the next section. */
    private static final int KEPT = 4096;
    /** Bytes copied from the input at first: a whole head usually, and no more than this of a body after it. */
    private static final int PIECE = 1024;

    private final boolean hasStartLine;
    private final int maxBytes;
    private final int maxFields;
    private final int errorStatus;
    private final boolean lenientLf;
    /** Per byte: its lower case if it may be in a field name, else 0. */
    private final byte[] nameChars;
    private final boolean laxNames;
    /** Where a lax name had a character a token may not have (-1: nowhere), for show errors. */
    private long relaxedAt = -1;
    /** Per field: what it is ({@link #OTHER}, {@link #HOST}...). */
    private final byte[] kinds;

    /** The section's bytes: its complete lines in {@code [0, used)}, then a copy of the partial line. */
    private byte[] bytes;
    /** The copy of the section's bytes the last {@link #build()} gave its headers. */
    private byte[] built;
    private int used;
    /** Per field: name offset, name length (-1 once dropped), value offset, value length. */
    private int[] table;
    private int fields;
    /** Fields dropped: {@link #build()} leaves them out. */
    private int dropped;
    /** Bit {@code 1 << kind} for each kind of field present. */
    private int seen;
    private int lines;
    /** Bytes after the input's reader index already scanned, with no LF among them (and copied after used). */
    private int pending;
    /** Leading empty lines consumed before a start line. */
    private int skipped;
    /** Bytes consumed from the input, empty lines included. */
    private long consumed;
    /** Message offset of the section's first byte. */
    private long base;
    /** At the start of the last {@link #read}: the input's reader index, {@link #consumed} and {@link #used}. */
    private int callStart;
    private long consumedAtCall;
    private int usedAtCall;

    SectionReader(boolean hasStartLine, H1Limits limits, int errorStatus, boolean lenientLf, boolean laxNames) {
        this.hasStartLine = hasStartLine;
        this.maxBytes = limits.maxHead();
        this.maxFields = limits.maxFields();
        this.errorStatus = errorStatus;
        this.lenientLf = lenientLf;
        this.nameChars = laxNames ? Chars.LAX_NAME_LOWER : Chars.TOKEN_LOWER;
        this.laxNames = laxNames;
        this.kinds = new byte[maxFields + 1];
    }

    /** Starts a new section whose first byte is at {@code base} in its message. */
    void reset(long base) {
        this.base = base;
        used = 0;
        fields = 0;
        dropped = 0;
        seen = 0;
        lines = 0;
        pending = 0;
        skipped = 0;
        consumed = 0;
        relaxedAt = -1;
    }

    /** Where accept-invalid let a field name through that a token would not be (-1: nowhere). */
    long relaxedAt() {
        return relaxedAt;
    }

    /** No byte of the section seen yet, leading empty lines aside. */
    boolean untouched() {
        return lines == 0 && pending == 0;
    }

    /** The message offset of the first byte not consumed. */
    long end() {
        return base + consumed;
    }

    /**
     * For {@code show errors}, after an {@link H1Exception} in the last {@link #read} of this section (or in the rules
     * run on the head it completed): a copy of the section's bytes as far as they came, {@code in}'s unread bytes
     * included, and where they start in the message. The bytes that last call was given are still in the input, as
     * they came (an exception leaves the reader index where the call found it; a complete head's bytes are behind
     * it); the lines complete before it are in the array, their field names lower-cased.
     */
    H1Capture capture(ByteBuf in, int max) {
        int rest = in == null ? 0 : in.writerIndex() - callStart;
        int n = (int) Math.min(max, (long) usedAtCall + rest);
        byte[] b = new byte[n];
        System.arraycopy(bytes == null ? b : bytes, 0, b, 0, Math.min(usedAtCall, n));
        if (n > usedAtCall) {
            in.getBytes(callStart, b, usedAtCall, n - usedAtCall);
        }
        return new H1Capture(base + consumedAtCall - usedAtCall, b);
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
        callStart = r;
        consumedAtCall = consumed;
        usedAtCall = used;
        boolean done = consume(in, start);
        consumed += in.readerIndex() - r;
        return done;
    }

    /*
     * All offsets below are in the array. The input's reader index is at offset "at" (the partial line left in
     * the input is already copied there), its writer index at "inEnd"; "limit" is how far the input is copied,
     * and bytes[limit] is 0, which ends a name and a value: the loops over a line need no other bound.
     *
     * The lines are found and checked in one pass: the field lines usually in one go each (fieldLines), anything
     * else the classic way, line by line as a scan for LFs finds them (the empty line, the start line, a line
     * cut by the end of the copied bytes, an invalid one). Which error wins does not depend on that: the size is
     * checked first, once the scan is over, then the first invalid line (checking stops there), then what
     * stopped the scan.
     */
    private boolean consume(ByteBuf in, StartLineParser start) throws H1Exception {
        int r = in.readerIndex();
        int w = in.writerIndex();
        if (hasStartLine && lines == 0 && r < w) {
            r = skipEmptyLines(in, r, w);
        }
        int at = used;
        int inEnd = at + w - r;
        int limit = at + pending;
        if (bytes != null) {
            bytes[limit] = 0;
        }
        int lineStart = at;
        // Where the scan for the LF of the line at lineStart goes on (the bytes before have none).
        int from = limit;
        int maxLines = maxFields + (hasStartLine ? 1 : 0);
        int linesBefore = lines;
        int found = 0;
        int lastLf = -1;
        int endOfSection = -1;
        String scanError = null;
        long scanErrorPosition = 0;
        // Lines are checked as they are found until one is invalid or ends the head (an HTTP/0.9 request line).
        boolean checking = true;
        H1Exception invalid = null;
        int headEnd = -1;
        while (true) {
            if (lineStart == from && lineStart < limit && bytes[lineStart] != '\r' && checking
                    && (lines > 0 || !hasStartLine) && linesBefore + found < maxLines) {
                int next = fieldLines(lineStart, limit, maxLines - linesBefore - found);
                if (next > lineStart) {
                    found += plainLines;
                    lastLf = next - 1;
                    from = lineStart = next;
                }
                if (partialLine) {
                    from = limit;
                }
                // What stopped it, the line at lineStart, is looked at the classic way.
            }
            int lf = from < limit ? Chars.indexOfLf(bytes, from, limit) : -1;
            if (lf < 0) {
                // Beyond "stop" the section is too large whatever follows (the size check below says so).
                int stop = Math.min(inEnd, at + Math.max(2, maxBytes - skipped - used + 1));
                if (limit >= stop) {
                    break;
                }
                from = limit;
                limit = fill(in, r - at, limit, stop);
                continue;
            }
            int len = lf - lineStart;
            if (len == 0 || len == 1 && bytes[lineStart] == '\r') {
                if (len == 0 && !lenientLf) {
                    scanError = "bare LF";
                    scanErrorPosition = position(lineStart);
                    break;
                }
                endOfSection = lf + 1;
                break;
            }
            if (linesBefore + found == maxLines) {
                scanError = "too many header fields";
                scanErrorPosition = position(lineStart);
                break;
            }
            found++;
            lastLf = lf;
            if (checking) {
                try {
                    if (line(lineStart, lf, start)) {
                        // The head ended with its start line (HTTP/0.9): what follows belongs to the next message.
                        headEnd = lf;
                        checking = false;
                    }
                } catch (H1Exception e) {
                    invalid = e;
                    checking = false;
                }
            }
            from = lineStart = lf + 1;
        }
        int copyEnd = lastLf + 1 > at ? lastLf + 1 : at;
        checkSize(copyEnd - at + (endOfSection >= 0 ? endOfSection - copyEnd : inEnd - copyEnd));
        if (headEnd >= 0) {
            used = headEnd + 1;
            in.readerIndex(r + used - at);
            pending = 0;
            return true;
        }
        if (invalid != null) {
            throw invalid;
        }
        if (scanError != null) {
            throw error(scanError, scanErrorPosition);
        }
        used = copyEnd;
        if (endOfSection >= 0) {
            in.readerIndex(r + endOfSection - at);
            pending = 0;
            return true;
        }
        // The partial line is copied whole: the scan went to the end of the input (else the size check failed).
        assert limit == inEnd;
        in.readerIndex(r + copyEnd - at);
        pending = inEnd - copyEnd;
        return false;
    }

    /**
     * Skips the empty lines before a start line (RFC 9112 2.2: ignored; HAProxy: any number), in the input as
     * they are rare; returns the input index after them (consumed with the lines that follow them).
     */
    private int skipEmptyLines(ByteBuf in, int r, int w) throws H1Exception {
        int p = r;
        while (p < w) {
            byte c = in.getByte(p);
            int len;
            if (c == '\n') {
                len = 1; // a lone LF too, as HAProxy (RFC 9112 2.2): the bare-LF rule is for the lines of a message
            } else if (c == '\r' && p + 1 < w && in.getByte(p + 1) == '\n') {
                len = 2;
            } else {
                break;
            }
            skipped += len;
            p += len;
            checkSize(0);
        }
        if (p > r) {
            // The partial line left by the last call (a CR) was the start of the first of them.
            pending = 0;
        }
        return p;
    }

    /**
     * Copies more of the input (at array offset {@code limit}, input index {@code limit + delta}), at most up to
     * {@code stop}: the first piece, then as much again as is copied; returns the new limit.
     */
    private int fill(ByteBuf in, int delta, int limit, int stop) {
        int n = Math.min(stop - limit, Math.max(PIECE, limit));
        int need = limit + n + SPARE;
        if (bytes == null || need > bytes.length) {
            int size = bytes == null ? need : Math.max(need, Math.min(2 * bytes.length, maxBytes + SPARE));
            byte[] grown = new byte[size];
            if (limit > 0) {
                System.arraycopy(bytes, 0, grown, 0, limit);
            }
            bytes = grown;
        }
        in.getBytes(limit + delta, bytes, limit, n);
        bytes[limit + n] = 0;
        return limit + n;
    }

    private void checkSize(int more) throws H1Exception {
        if ((long) skipped + used + more > maxBytes) {
            throw error("header section too large", base + maxBytes);
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

    /** How many lines the last {@link #fieldLines} took. */
    private int plainLines;
    /** The last {@link #fieldLines} stopped at a line with no LF before the end of the bytes copied. */
    private boolean partialLine;

    /**
     * Checks the plain valid field lines from {@code a} (the usual ones), at most {@code max}, each in one pass,
     * and adds their fields; returns where the line it stopped at starts ({@link #plainLines} says how many it
     * took, {@link #partialLine} whether it stopped at a partial line). The line it stopped at is to be looked
     * at the classic way: {@link #line} says what is wrong with it, or it is the empty line, or one too many.
     */
    private int fieldLines(int a, int limit, int max) {
        byte[] b = bytes;
        byte[] kinds = this.kinds;
        int[] table = this.table;
        int fields = this.fields;
        int seen = this.seen;
        int taken = 0;
        boolean partial = false;
        // Every offset below is at most limit, so that 8 bytes from it are in the array (it keeps SPARE bytes
        // after the limit): the loops need not look for the end of the array.
        if (limit + 8 > b.length) {
            max = 0;
        }
        for (; taken < max; taken++) {
            // The end of the line first: the first byte that is not a field character (CR, LF, or the 0 at the
            // limit at the latest; a name holds none either).
            int e = a;
            while (true) {
                long bad = Chars.maybeNotFieldChars(b, e);
                if (bad == 0) {
                    e += 8;
                    continue;
                }
                e += Long.numberOfTrailingZeros(bad) >>> 3;
                byte c = b[e];
                if (c == '\r' || !Chars.is(c, Chars.FIELD)) {
                    break;
                }
                e++;
            }
            int lf;
            if (e == limit || b[e] == '\r' && e + 1 == limit) {
                partial = true;
                break;
            } else if (b[e] == '\r' && b[e + 1] == '\n') {
                lf = e + 1;
            } else if (b[e] == '\n' && lenientLf) {
                lf = e;
            } else {
                break;
            }
            // The name, put in lower case (as the classic check would leave it) 8 bytes at a time while they
            // are letters, digits or '-' (b[e] is not); a name with other characters (rare) is left to the
            // classic check. The last word is stored once the line is checked:
            // storing it now would slow down the loads of the bytes after it, in the same word.
            int i = a;
            long word;
            int n;
            while (true) {
                word = Chars.word8(b, i);
                long other = Chars.notNameWordChars(word);
                if (other != 0) {
                    n = Long.numberOfTrailingZeros(other) >>> 3;
                    break;
                }
                Chars.putWord8(b, i, word | Chars.LOWER_BITS);
                i += 8;
            }
            int last = i;
            long lastWord = word | Chars.LOWER_BITS & (1L << (n << 3)) - 1;
            i += n;
            if ((byte) (word >>> (n << 3)) != ':' || i == a) {
                break;
            }
            int nameLength = i - a;
            // The value, its bytes checked above: without the whitespace around it.
            i++;
            while (Chars.isSpace(b[i])) {
                i++;
            }
            while (e > i && Chars.isSpace(b[e - 1])) {
                e--;
            }
            int t = 4 * fields;
            if (table == null || t + 4 > table.length) {
                table = growTable();
            }
            int kind = kind(b, a, nameLength, lastWord);
            seen |= 1 << kind;
            kinds[fields++] = (byte) kind;
            table[t] = a;
            table[t + 1] = nameLength;
            table[t + 2] = i;
            table[t + 3] = e - i;
            if (lastWord != word) {
                Chars.putWord8(b, last, lastWord);
            }
            a = lf + 1;
        }
        this.fields = fields;
        this.seen = seen;
        lines += taken;
        plainLines = taken;
        partialLine = partial;
        return a;
    }

    /** Checks the field line {@code b[a, end)}, whose {@code b[end]} is its CR or LF. */
    private void field(int a, int end) throws H1Exception {
        byte[] b = bytes;
        if (Chars.isSpace(b[a])) {
            // RFC 9112 5.2: obs-fold is refused (HAProxy unfolds it); so is whitespace before the first field.
            throw error(fields == 0 ? "whitespace before the first header field" : "obs-fold (line folding)",
                    position(a));
        }
        int i = a;
        for (byte l; i < end && (l = nameChars[b[i] & 0xff]) != 0; i++) {
            b[i] = l;
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
        if (laxNames && relaxedAt < 0) {
            for (int k = a; k < i; k++) {
                if (Chars.TOKEN_LOWER[b[k] & 0xff] == 0) {
                    relaxedAt = position(k);
                    break;
                }
            }
        }
        int nameLength = i - a;
        i++;
        while (i < end && Chars.isSpace(b[i])) {
            i++;
        }
        int valueStart = i;
        for (; i < end; i++) {
            if (!Chars.is(b[i], Chars.FIELD)) {
                throw error("invalid character in field value: " + Chars.describe(b[i]), position(i));
            }
        }
        while (i > valueStart && Chars.isSpace(b[i - 1])) {
            i--;
        }
        add(a, nameLength, valueStart, i - valueStart,
                kind(b, a, nameLength, Chars.word8(b, a + (nameLength & ~7))));
    }

    private void add(int nameOffset, int nameLength, int valueOffset, int valueLength, int kind) {
        int t = 4 * fields;
        if (table == null || t + 4 > table.length) {
            growTable();
        }
        seen |= 1 << kind;
        kinds[fields++] = (byte) kind;
        table[t] = nameOffset;
        table[t + 1] = nameLength;
        table[t + 2] = valueOffset;
        table[t + 3] = valueLength;
    }

    /** Room in the working table for one more field. */
    private int[] growTable() {
        return table = table == null ? new int[4 * FIRST_FIELDS] : Arrays.copyOf(table, 2 * table.length);
    }

    private static final long W_HOST = Chars.word8("host\0\0\0\0");
    private static final long W_UPGRADE = Chars.word8("upgrade\0");
    private static final long W_CONNECTI = Chars.word8("connecti");
    private static final long W_ON = Chars.word8("on\0\0\0\0\0\0");
    private static final long W_CONTENT = Chars.word8("content-");
    private static final long W_LENGTH = Chars.word8("length\0\0");
    private static final long W_TRANSFER = Chars.word8("transfer");
    private static final long W_ENCODIN = Chars.word8("-encodin");
    private static final long W_G = 'g';
    private static final long W_SEC_WEBS = Chars.word8("sec-webs");
    private static final long W_OCKET_KE = Chars.word8("ocket-ke");
    private static final long W_Y = 'y';
    private static final long W_OCKET_AC = Chars.word8("ocket-ac");
    private static final long W_CEPT = Chars.word8("cept\0\0\0\0");

    /**
     * What the field named {@code b[a, a + length)} is: its length, then a word or three, tell. The name is in
     * lower case; so are the {@code length % 8} bytes of {@code lastWord}, the word at {@code a + length / 8 * 8},
     * which is maybe not stored yet.
     */
    private static int kind(byte[] b, int a, int length, long lastWord) {
        return switch (length) {
            case 4 -> (lastWord & 0xffffffffL) == W_HOST ? HOST : OTHER;
            case 7 -> (lastWord & 0xffffffffffffffL) == W_UPGRADE ? UPGRADE : OTHER;
            case 10 -> (lastWord & 0xffffL) == W_ON && Chars.word8(b, a) == W_CONNECTI ? CONNECTION : OTHER;
            case 14 -> (lastWord & 0xffffffffffffL) == W_LENGTH && Chars.word8(b, a) == W_CONTENT
                    ? CONTENT_LENGTH : OTHER;
            case 17 -> {
                long w = Chars.word8(b, a);
                if (w == W_TRANSFER) {
                    yield (lastWord & 0xff) == W_G && Chars.word8(b, a + 8) == W_ENCODIN ? TRANSFER_ENCODING : OTHER;
                }
                yield w == W_SEC_WEBS && (lastWord & 0xff) == W_Y && Chars.word8(b, a + 8) == W_OCKET_KE
                        ? WEBSOCKET_KEY : OTHER;
            }
            case 20 -> (lastWord & 0xffffffffL) == W_CEPT && Chars.word8(b, a) == W_SEC_WEBS
                    && Chars.word8(b, a + 8) == W_OCKET_AC ? WEBSOCKET_ACCEPT : OTHER;
            default -> OTHER;
        };
    }

    // The fields, for the checks that follow the section (framing, Host): names are in lower case.

    byte[] bytes() {
        return bytes;
    }

    int fields() {
        return fields;
    }

    /** Whether a field of this kind is there (dropped or not). */
    boolean has(int kind) {
        return (seen & 1 << kind) != 0;
    }

    /** Whether field {@code i} is of this kind; never for a dropped field. */
    boolean is(int i, int kind) {
        return kinds[i] == kind && table[4 * i + 1] >= 0;
    }

    /** The first field of this kind (not dropped), or -1. */
    int first(int kind) {
        if (has(kind)) {
            for (int i = 0; i < fields; i++) {
                if (is(i, kind)) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** Leaves field {@code i} out of the headers {@link #build()} makes. */
    void drop(int i) {
        if (table[4 * i + 1] >= 0) {
            table[4 * i + 1] = -1;
            dropped++;
        }
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

    /** The headers: a copy of the section's bytes and of its fields (dropped ones left out), at their size. */
    HttpHeaders build() {
        int n = fields - dropped;
        int[] index;
        if (dropped == 0) {
            index = table == null ? new int[4 * SPARE_FIELDS] : Arrays.copyOf(table, 4 * (n + SPARE_FIELDS));
        } else {
            index = new int[4 * (n + SPARE_FIELDS)];
            for (int i = 0, k = 0; i < fields; i++) {
                if (table[4 * i + 1] >= 0) {
                    System.arraycopy(table, 4 * i, index, 4 * k++, 4);
                }
            }
        }
        built = bytes == null ? new byte[SPARE] : Arrays.copyOf(bytes, used + SPARE);
        if (bytes != null && bytes.length > KEPT) {
            bytes = null;
        }
        if (table != null && table.length > KEPT / 8) {
            table = null;
        }
        return new HttpHeaders(built, used, index, n);
    }

    /** A view on the bytes of the headers the last {@link #build()} made. */
    AsciiString view(int offset, int length) {
        return new AsciiString(built, offset, length, false);
    }
}
