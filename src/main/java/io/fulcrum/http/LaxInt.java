package io.fulcrum.http;

/**
 * HAProxy's reading of an integer in a header, a cookie or a URL parameter ({@code hdr_val}, {@code cook_val},
 * {@code urlp_val}): a leading '-' makes it negative, then every byte up to the first one above '9' counts as a
 * digit (so '+', ' ' or '.' count as negative digits: "+5" is -45, "1.5" is 85), in 32-bit arithmetic that
 * wraps. Odd, but it is what configurations written for HAProxy see.
 */
final class LaxInt {
    private LaxInt() {
    }

    static int parse(CharSequence s, int from, int to) {
        int i = from;
        boolean negative = i < to && s.charAt(i) == '-';
        if (negative) {
            i++;
        }
        int v = 0;
        for (; i < to; i++) {
            int d = s.charAt(i) - '0';
            if (d > 9) {
                break;
            }
            v = negative ? v * 10 - d : v * 10 + d;
        }
        return v;
    }
}
