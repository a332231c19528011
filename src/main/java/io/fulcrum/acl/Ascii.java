package io.fulcrum.acl;

import io.netty.util.AsciiString;

/** Byte-string comparisons for pattern matching, with optional ASCII case folding. */
final class Ascii {
    private Ascii() {
    }

    /** A pattern as a hash key, lowercased for "-i". */
    static AsciiString key(String text, boolean folded) {
        AsciiString a = new AsciiString(text);
        return folded ? a.toLowerCase() : a;
    }

    private static int fold(int b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    static boolean regionMatches(byte[] a, int aOff, byte[] b, int bOff, int len, boolean icase) {
        for (int i = 0; i < len; i++) {
            int x = a[aOff + i] & 0xff;
            int y = b[bOff + i] & 0xff;
            if (x != y && !(icase && fold(x) == fold(y))) {
                return false;
            }
        }
        return true;
    }

    static int indexOf(byte[] s, int off, int len, byte[] p, int pOff, int pLen, boolean icase) {
        for (int i = 0; i + pLen <= len; i++) {
            if (regionMatches(s, off + i, p, pOff, pLen, icase)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * True when {@code p} (without its leading and trailing delimiters) appears in the string as a run
     * of whole words: preceded by the start or a delimiter, followed by the end or a delimiter. "-m dir"
     * uses the delimiters "/?", "-m dom" "/?.:".
     */
    static boolean matchWord(byte[] s, int off, int len, byte[] p, String delims, boolean icase) {
        int ps = 0;
        int pe = p.length;
        while (ps < pe && delims.indexOf(p[ps]) >= 0) {
            ps++;
        }
        while (pe > ps && delims.indexOf(p[pe - 1]) >= 0) {
            pe--;
        }
        int pl = pe - ps;
        if (pl == 0) {
            return false;
        }
        for (int i = 0; i + pl <= len; i++) {
            if ((i == 0 || delims.indexOf(s[off + i - 1]) >= 0) && regionMatches(s, off + i, p, ps, pl, icase)
                    && (i + pl == len || delims.indexOf(s[off + i + pl]) >= 0)) {
                return true;
            }
        }
        return false;
    }
}
