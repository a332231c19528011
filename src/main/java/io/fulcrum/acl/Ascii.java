package io.fulcrum.acl;

/** Byte-string comparisons for pattern matching, with optional ASCII case folding. */
final class Ascii {
    private Ascii() {
    }

    static String lower(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                StringBuilder b = new StringBuilder(s);
                for (int j = i; j < b.length(); j++) {
                    char d = b.charAt(j);
                    if (d >= 'A' && d <= 'Z') {
                        b.setCharAt(j, (char) (d + 32));
                    }
                }
                return b.toString();
            }
        }
        return s;
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
