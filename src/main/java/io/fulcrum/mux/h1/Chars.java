package io.fulcrum.mux.h1;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte classes of the HTTP/1 grammar (RFC 9110, 9112, 3986) as one lookup table: a parser's inner loop is one
 * load; and the same classes, the usual cases of them, 8 bytes at a time.
 */
final class Chars {
    private Chars() {
    }

    /** tchar: what a method, a field name or a transfer coding is made of. */
    static final int TOKEN = 1;
    /** field-vchar, SP and HTAB: what a field value (or a reason phrase) may hold. */
    static final int FIELD = 2;
    /** What a request target may hold by default: VCHAR but '#'. */
    static final int TARGET = 4;
    /** What a field name may hold with accept-invalid: any VCHAR or obs-text but ':'. */
    static final int LAX_NAME = 8;
    /** What an HTTP version may hold with accept-invalid: upper-case letters, digits, '.', '/' (as HAProxy). */
    static final int VERSION = 16;
    /** What a host name (RFC 3986 reg-name) may hold: unreserved, pct-encoded, sub-delims. */
    static final int REG_NAME = 32;

    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 0x21; c < 0x7f; c++) {
            CLASS[c] |= FIELD | TARGET | LAX_NAME;
        }
        for (int c = 0x80; c < 0x100; c++) {
            CLASS[c] |= FIELD | LAX_NAME;
        }
        CLASS[' '] |= FIELD;
        CLASS['\t'] |= FIELD;
        CLASS['#'] &= ~TARGET;
        CLASS[':'] &= ~LAX_NAME;
        mark("!#$%&'*+-.^_`|~", TOKEN);
        mark("-._~%!$&'()*+,;=", REG_NAME);
        mark("./", VERSION);
        for (int c = '0'; c <= '9'; c++) {
            CLASS[c] |= TOKEN | VERSION | REG_NAME;
        }
        for (int c = 'A'; c <= 'Z'; c++) {
            CLASS[c] |= TOKEN | VERSION | REG_NAME;
            CLASS[c + 32] |= TOKEN | REG_NAME;
        }
    }

    /** Per byte: its lower case if it is a tchar (may be in a field name), else 0. */
    static final byte[] TOKEN_LOWER = lowerTable(TOKEN);
    /** Per byte: its lower case if it may be in a field name with accept-invalid, else 0. */
    static final byte[] LAX_NAME_LOWER = lowerTable(LAX_NAME);

    private static byte[] lowerTable(int flag) {
        byte[] t = new byte[256];
        for (int c = 0; c < 256; c++) {
            if ((CLASS[c] & flag) != 0) {
                t[c] = lower((byte) c);
            }
        }
        return t;
    }

    private static void mark(String chars, int flag) {
        for (int k = 0; k < chars.length(); k++) {
            CLASS[chars.charAt(k)] = (byte) (CLASS[chars.charAt(k)] | flag);
        }
    }

    static boolean is(byte b, int flag) {
        return (CLASS[b & 0xff] & flag) != 0;
    }

    // Words of 8 bytes, to look at a head 8 bytes at a time: little-endian, the first byte is the lowest.

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOW7 = 0x7f * ONES;
    /** What turns the upper-case letters of a word into lower case, and leaves digits and '-' as they are. */
    static final long LOWER_BITS = 0x20 * ONES;

    /** The 8 bytes at {@code b[i]} as one word. */
    static long word8(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    static void putWord8(byte[] b, int i, long word) {
        LONGS.set(b, i, word);
    }

    /** {@link #word8} of the first 8 characters of {@code s} (ASCII). */
    static long word8(String s) {
        return word8(s.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0);
    }

    /*
     * How the masks below find bytes: (x - c) & ~x has the high bit set in the bytes below c, and perhaps in
     * bytes after such a byte (a borrow goes on), never before; so does a carry up. Each mask marks the first
     * byte looked for in the word, and no byte before it that is not one (a caller that looks closer at the
     * byte marked first may go on after it if it was not one).
     */

    /**
     * The 8 bytes at {@code b[i]}, marked (high bit) where they are not a field value character other than
     * HTAB (a control character or DEL), and perhaps in some that are (a DEL is found by adding 1, and 0xff
     * carries into the next byte); 0 if all are.
     */
    static long maybeNotFieldChars(byte[] b, int i) {
        long x = word8(b, i);
        return (x - 0x20 * ONES | x + ONES) & ~x & HIGHS;
    }

    /** As {@link #maybeNotFieldChars}, for what is not a VCHAR other than '#': what ends a request target. */
    static long notTargetChars(byte[] b, int i) {
        long x = word8(b, i);
        long hash = x ^ '#' * ONES;
        return (x - 0x21 * ONES & ~x | (x + ONES | x) | hash - ONES & ~hash) & HIGHS;
    }

    /** The bytes of {@code x} in {@code [lo, hi]} ({@code 1 <= lo <= hi <= 127}) marked, exactly. */
    private static long between(long x, int lo, int hi) {
        long low = x & LOW7;
        // Per byte, with no carry or borrow from one to the next: high bit of (127 + hi + 1 - low) iff low <= hi,
        // of (low + 127 - (lo - 1)) iff low >= lo; and none for a byte of 0x80 or more.
        return (ONES * (128 + hi) - low & ~x & low + ONES * (128 - lo)) & HIGHS;
    }

    /**
     * The bytes of {@code x} marked, exactly, where they are not a letter, a digit or '-' (the usual field name
     * characters: {@link #LOWER_BITS} puts them all in lower case); 0 if all are.
     */
    static long notNameWordChars(long x) {
        return ~(between(x | LOWER_BITS, 'a', 'z') | between(x, '0', '9') | between(x, '-', '-')) & HIGHS;
    }

    /** The first LF in {@code b[from, to)}, or -1. */
    static int indexOfLf(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = word8(b, i) ^ '\n' * ONES;
            long lf = x - ONES & ~x & HIGHS;
            if (lf != 0) {
                return i + (Long.numberOfTrailingZeros(lf) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    static boolean isSpace(byte b) {
        return b == ' ' || b == '\t';
    }

    /** The value of a hexadecimal digit, or -1. */
    static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int l = b | 0x20;
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    /** ASCII lower case of {@code b}. */
    static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    /** A short description of a byte for error messages ("NUL", "bare CR", "0x7f"). */
    static String describe(byte b) {
        return switch (b) {
            case 0 -> "NUL";
            case '\r' -> "bare CR";
            case '\n' -> "bare LF";
            case ' ' -> "space";
            case '\t' -> "tab";
            default -> b > 0x20 && b < 0x7f ? "'" + (char) b + "'" : String.format("0x%02x", b & 0xff);
        };
    }
}
