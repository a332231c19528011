package io.fulcrum.mux.h1;

import io.netty.buffer.ByteBuf;

/**
 * The line before each chunk: {@code chunk-size [chunk-ext] CRLF} (RFC 9112 7.1). Extensions are checked
 * (HAProxy skips anything up to the line end) and ignored.
 */
final class ChunkLine {
    private ChunkLine() {
    }

    /** As HAProxy: 13 hex digits at most, never more than a double can hold exactly. */
    static final long MAX_SIZE = (1L << 52) - 1;

    /**
     * The size on the line {@code in[from, lf)} whose LF is at {@code lf}; {@code pos} is the message offset of
     * {@code from}, for errors.
     */
    static long size(ByteBuf in, int from, int lf, boolean lenientLf, int status, long pos) throws H1Exception {
        int end = lf;
        if (end > from && in.getByte(end - 1) == '\r') {
            end--;
        } else if (!lenientLf) {
            throw new H1Exception(status, "bare LF after chunk size", pos + lf - from);
        }
        long size = 0;
        int i = from;
        for (int h; i < end && (h = Chars.hex(in.getByte(i))) >= 0; i++) {
            size = size << 4 | h;
            if (size > MAX_SIZE) {
                throw new H1Exception(status, "chunk size too large", pos + i - from);
            }
        }
        if (i == from) {
            throw new H1Exception(status, "invalid chunk size", pos);
        }
        for (i = spaces(in, i, end); i < end; i = spaces(in, i, end)) {
            // chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ), and spaces before the line end as HAProxy
            if (in.getByte(i) != ';') {
                String what = in.indexOf(from, i, (byte) ';') >= 0 ? "invalid chunk extension" : "invalid chunk size";
                throw new H1Exception(status, what, pos + i - from);
            }
            int name = spaces(in, i + 1, end);
            i = token(in, name, end);
            if (i == name) {
                throw new H1Exception(status, "invalid chunk extension", pos + i - from);
            }
            int eq = spaces(in, i, end);
            if (eq < end && in.getByte(eq) == '=') {
                int value = spaces(in, eq + 1, end);
                i = value < end && in.getByte(value) == '"' ? quoted(in, value, end) : token(in, value, end);
                if (i <= value) {
                    throw new H1Exception(status, "invalid chunk extension", pos + value - from);
                }
            }
        }
        return size;
    }

    private static int spaces(ByteBuf in, int i, int end) {
        while (i < end && Chars.isSpace(in.getByte(i))) {
            i++;
        }
        return i;
    }

    private static int token(ByteBuf in, int i, int end) {
        while (i < end && Chars.is(in.getByte(i), Chars.TOKEN)) {
            i++;
        }
        return i;
    }

    /** The end of the quoted-string at {@code i} (its opening quote), or -1 if it is not one. */
    private static int quoted(ByteBuf in, int i, int end) {
        for (i++; i < end; i++) {
            byte c = in.getByte(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                if (++i == end || !Chars.is(in.getByte(i), Chars.FIELD)) {
                    return -1;
                }
            } else if (!Chars.is(c, Chars.FIELD)) {
                return -1;
            }
        }
        return -1;
    }
}
