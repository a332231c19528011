package io.fulcrum.mux.h1;

/**
 * The request line or status line of the head being read, as offsets into the head's bytes. Like HAProxy,
 * parts may be separated by several spaces or tabs; unlike it, everything else is checked to the letter.
 */
final class StartLine {
    /** {@link #version} of an HTTP/0.9 request line (no version): only with accept-invalid. */
    static final int HTTP_09 = 9;

    private final boolean acceptInvalid;

    int methodOffset;
    int methodLength;
    /**
     * The method is PRI, HTTP/2's preface's, in any case: the request goes to the stream, which refuses it, with its
     * version read as 1.1 whatever its major, and without the checks of the Host field and of an asterisk-form target.
     */
    boolean pri;
    int targetOffset;
    int targetLength;
    int version;
    /** Where the request line's version is, as spelt. */
    int versionOffset;
    int versionLength;
    int status;
    int reasonOffset;
    int reasonLength;
    /** Where accept-invalid let the line through what it would refuse without (-1: nowhere), for show errors. */
    long relaxedAt;

    StartLine(boolean acceptInvalid) {
        this.acceptInvalid = acceptInvalid;
    }

    /**
     * {@code method SP request-target SP HTTP-version}; true for an HTTP/0.9 line (the head ends there).
     * {@code b[end]} is the line's CR or LF.
     */
    boolean request(byte[] b, int off, int end, long pos) throws H1Exception {
        relaxedAt = -1;
        int i = off;
        while (i < end && Chars.is(b[i], Chars.TOKEN)) {
            i++;
        }
        if (i == off || i < end && !Chars.isSpace(b[i])) {
            throw bad("invalid character in method: " + Chars.describe(i < end ? b[i] : (byte) '\n'), pos + i - off);
        }
        methodOffset = off;
        methodLength = i - off;
        // The method of HTTP/2's preface passes, whatever its version's major: the stream refuses it, as HAProxy's.
        pri = isPri(b, off, i);
        i = skipSpaces(b, i, end);
        if (i == end) {
            throw bad("no request target", pos + i - off);
        }
        targetOffset = i;
        // VCHARs other than '#' are target characters: skip them 8 at a time up to the first other byte (b[end],
        // a CR or LF, at the latest), then look at the bytes one by one.
        while (i + 8 <= b.length) {
            long other = Chars.notTargetChars(b, i);
            if (other != 0) {
                i += Long.numberOfTrailingZeros(other) >>> 3;
                break;
            }
            i += 8;
        }
        for (; i < end && !Chars.isSpace(b[i]); i++) {
            byte c = b[i];
            if (!Chars.is(c, Chars.TARGET)) {
                if (!(acceptInvalid && (c == '#' || c < 0))) {
                    throw bad(c == '#' ? "fragment in request target" : "invalid character in request target: "
                            + Chars.describe(c), pos + i - off);
                }
                relaxed(pos + i - off);
            }
        }
        targetLength = i - targetOffset;
        i = skipSpaces(b, i, end);
        if (i == end) {
            if (!acceptInvalid) {
                throw bad("no HTTP version (HTTP/0.9 request)", pos + i - off);
            }
            version = HTTP_09; // (HAProxy does not keep these for show errors)
            return true;
        }
        version = version(b, i, end, pos + i - off, 400, pri);
        versionOffset = i;
        versionLength = end - i;
        return false;
    }

    /** {@code HTTP-version SP status-code SP [reason-phrase]}. */
    void response(byte[] b, int off, int end, long pos) throws H1Exception {
        relaxedAt = -1;
        int i = off;
        while (i < end && !Chars.isSpace(b[i])) {
            i++;
        }
        version = version(b, off, i, pos, 502, false);
        if (i == end) {
            throw bad502("no status code", pos + i - off);
        }
        i = skipSpaces(b, i, end);
        int s = i;
        int code = 0;
        for (; i < end && i - s < 4 && b[i] >= '0' && b[i] <= '9'; i++) {
            code = code * 10 + b[i] - '0';
        }
        if (i - s != 3 || code < 100 || i < end && !Chars.isSpace(b[i])) {
            throw bad502("invalid status code", pos + s - off);
        }
        status = code;
        i = skipSpaces(b, i, end);
        reasonOffset = i;
        for (; i < end; i++) {
            if (!Chars.is(b[i], Chars.FIELD)) {
                throw bad502("invalid character in reason: " + Chars.describe(b[i]), pos + i - off);
            }
        }
        reasonLength = end - reasonOffset;
    }

    /**
     * "HTTP/" DIGIT "." DIGIT with major 1: 10 or 11 (a higher minor is 11, RFC 9110 2.5). With accept-invalid,
     * as HAProxy: a request may name another protocol or use several digits, and is then taken as HTTP/1.0;
     * a response may use several digits.
     *
     * @param anyMajor a major version above 1 is read as 1.1 (see {@link #checkMajor})
     */
    private int version(byte[] b, int off, int end, long pos, int status, boolean anyMajor) throws H1Exception {
        int len = end - off;
        if (len == 8 && startsWithHttp(b, off) && digit(b[off + 5]) && b[off + 6] == '.' && digit(b[off + 7])) {
            return checkMajor(b[off + 5] - '0', b[off + 7] - '0', pos, status, anyMajor);
        }
        if (acceptInvalid) {
            relaxed(pos);
            if (status == 400) {
                for (int i = off; i < end; i++) {
                    if (!Chars.is(b[i], Chars.VERSION)) {
                        throw new H1Exception(status, "invalid HTTP version", pos + i - off);
                    }
                }
                return 10;
            }
            int dot = off + 5;
            while (dot < end && digit(b[dot])) {
                dot++;
            }
            if (len > 5 && startsWithHttp(b, off) && dot > off + 5 && dot < end - 1 && b[dot] == '.'
                    && allDigits(b, dot + 1, end)) {
                return checkMajor(number(b, off + 5, dot), number(b, dot + 1, end), pos, status, anyMajor);
            }
        }
        throw new H1Exception(status, "invalid HTTP version", pos);
    }

    /** Whether the request line spelt its version as {@code HttpHead.versionText(version)} does. */
    boolean versionAsWritten(byte[] b) {
        return versionLength == 8 && startsWithHttp(b, versionOffset) && b[versionOffset + 5] == '1'
                && b[versionOffset + 7] == (version == 10 ? '0' : '1');
    }

    private void relaxed(long position) {
        if (relaxedAt < 0) {
            relaxedAt = position;
        }
    }

    /** @param anyMajor a major version above 1 is read as 1.1, as HAProxy reads any */
    private static int checkMajor(int major, int minor, long pos, int status, boolean anyMajor) throws H1Exception {
        if (anyMajor && major > 1) {
            return 11;
        }
        if (major != 1) {
            // RFC 9110 15.6.6: 505 for a major version the server refuses (HAProxy takes it as HTTP/1.1).
            throw new H1Exception(status == 400 ? 505 : status, "unsupported HTTP major version " + major, pos);
        }
        return minor == 0 ? 10 : 11;
    }

    private static boolean isPri(byte[] b, int from, int to) {
        return to - from == 3 && (b[from] | 0x20) == 'p' && (b[from + 1] | 0x20) == 'r' && (b[from + 2] | 0x20) == 'i';
    }

    private static boolean startsWithHttp(byte[] b, int off) {
        return b[off] == 'H' && b[off + 1] == 'T' && b[off + 2] == 'T' && b[off + 3] == 'P' && b[off + 4] == '/';
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean allDigits(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!digit(b[i])) {
                return false;
            }
        }
        return true;
    }

    /** A decimal number, saturated (only compared with 0 and 1). */
    private static int number(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n = Math.min(n * 10 + b[i] - '0', 1000);
        }
        return n;
    }

    private static int skipSpaces(byte[] b, int i, int end) {
        while (i < end && Chars.isSpace(b[i])) {
            i++;
        }
        return i;
    }

    private static H1Exception bad(String reason, long pos) {
        return new H1Exception(400, reason, pos);
    }

    private static H1Exception bad502(String reason, long pos) {
        return new H1Exception(502, reason, pos);
    }
}
