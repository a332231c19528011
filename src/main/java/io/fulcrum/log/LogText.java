package io.fulcrum.log;

import io.fulcrum.conn.InetText;

import java.net.InetSocketAddress;

/**
 * How values are written into log lines: quoting (+Q), escaping for RFC 5424 structured data (+E),
 * hexadecimal numbers (+X), and HAProxy's "#XX" encoding of characters that would break a line's
 * fields (section 8.6).
 */
final class LogText {
    private LogText() {
    }

    /** Encoded in request lines and URIs: non-printable characters, '"' and '#'. */
    static final boolean[] URI = encodeSet("\"#");
    /** Encoded in captured headers: also the '{', '|' and '}' that delimit them. */
    static final boolean[] HEADER = encodeSet("\"#{|}");
    /** Encoded ("%XX") in the samples of HTTP rules' values: what a header value may not hold. */
    static final boolean[] HTTP = new boolean[256];

    static {
        for (int c = 0; c < 32; c++) {
            HTTP[c] = c != '\t';
        }
        HTTP[127] = true;
    }

    private static boolean[] encodeSet(String extra) {
        boolean[] set = new boolean[256];
        for (int c = 0; c < 256; c++) {
            set[c] = c < 32 || c > 126;
        }
        for (char c : extra.toCharArray()) {
            set[c] = true;
        }
        return set;
    }

    /**
     * Appends {@code text}, "-" when null (or {@code ""} when quoted), with the Q and E flags; characters
     * in {@code encode} (when not null) are written as '#' and two upper-case hexadecimal digits.
     */
    static void append(StringBuilder out, CharSequence text, int flags, boolean[] encode) {
        append(out, text, flags, encode, '#');
    }

    /** As {@link #append(StringBuilder, CharSequence, int, boolean[])}, encoded characters starting with {@code prefix}. */
    static void append(StringBuilder out, CharSequence text, int flags, boolean[] encode, char prefix) {
        boolean quote = (flags & LogVariable.QUOTE) != 0;
        if (text == null) {
            out.append(quote ? "\"\"" : "-");
            return;
        }
        if (quote) {
            out.append('"');
        }
        boolean escape = (flags & LogVariable.ESCAPE) != 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (encode != null && (c > 255 || encode[c])) {
                out.append(prefix);
                hexByte(out, c & 0xff);
            } else {
                if (escape && (c == '"' || c == '\\' || c == ']')) {
                    out.append('\\');
                }
                out.append(c);
            }
        }
        if (quote) {
            out.append('"');
        }
    }

    /** A number; in hexadecimal, upper case, zero-padded to {@code hexWidth} digits, when the flags say +X. */
    static void number(StringBuilder out, long v, int flags, int hexWidth) {
        if ((flags & LogVariable.HEX) != 0 && hexWidth > 0) {
            String h = Long.toHexString(v).toUpperCase();
            for (int i = h.length(); i < hexWidth; i++) {
                out.append('0');
            }
            out.append(h);
        } else {
            out.append(v);
        }
    }

    /** The address in HAProxy's text form (dotted quad, or RFC 5952 for IPv6). */
    static String ip(InetSocketAddress a) {
        return InetText.of(a.getAddress());
    }

    static void hexByte(StringBuilder out, int b) {
        out.append(Character.toUpperCase(Character.forDigit((b >> 4) & 15, 16))).append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
    }
}
