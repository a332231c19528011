package io.fulcrum.mux.h1;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte classes of the HTTP/1 grammar (RFC 9110, 9112, 3986) as one lookup table: a parser's inner loop is one load. */
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

    private static void mark(String chars, int flag) {
        for (int k = 0; k < chars.length(); k++) {
            CLASS[chars.charAt(k)] = (byte) (CLASS[chars.charAt(k)] | flag);
        }
    }

    static boolean is(byte b, int flag) {
        return (CLASS[b & 0xff] & flag) != 0;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * Whether the 8 bytes at {@code b[i]} are all field value characters other than HTAB (no control character,
     * no DEL), 8 at a time: field values are most of a head. False means: check them one by one.
     */
    static boolean eightFieldChars(byte[] b, int i) {
        long x = (long) LONGS.get(b, i);
        long del = x ^ 0x7f * ONES;
        // A byte below 0x20, or a byte equal to 0x7f, sets its high bit here (exact for existence).
        return ((x - 0x20 * ONES & ~x | del - ONES & ~del) & HIGHS) == 0;
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
