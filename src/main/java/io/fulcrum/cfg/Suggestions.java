package io.fulcrum.cfg;

import java.util.Collection;

/**
 * "Did you mean": the known word closest to a misspelt one, or null when none is close enough, measured as
 * HAProxy measures it so that both suggest the same word: each word's fingerprint counts its character
 * transitions (letters, "digit", "other", with the word's start and end as "other"), the distance of two words
 * is the sum of their fingerprints' differences, and a candidate further than twice the length of either word
 * is no suggestion. The first of equally close candidates wins.
 */
public final class Suggestions {
    private static final int OTHER = 28;

    private Suggestions() {
    }

    public static String closest(String word, Collection<String> known) {
        int[] target = fingerprint(word);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(target, fingerprint(candidate));
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        return best != null && bestDistance <= 2 * word.length() && bestDistance <= 2 * best.length() ? best : null;
    }

    static int distance(String a, String b) {
        return distance(fingerprint(a), fingerprint(b));
    }

    /** Counts of transitions, indexed 32 * from + to; row 0 marks the classes present. */
    private static int[] fingerprint(String word) {
        int[] fp = new int[1024];
        int from = OTHER;
        for (int i = 0; i < word.length(); i++) {
            int to = charClass(word.charAt(i));
            fp[to] = 1;
            fp[32 * from + to]++;
            from = to;
        }
        fp[32 * from + OTHER]++;
        return fp;
    }

    private static int charClass(char c) {
        char l = Character.toLowerCase(c);
        if (l >= 'a' && l <= 'z') {
            return l - 'a' + 1;
        }
        return c >= '0' && c <= '9' ? 27 : OTHER;
    }

    private static int distance(int[] a, int[] b) {
        int d = 0;
        for (int i = 0; i < a.length; i++) {
            d += Math.abs(a[i] - b[i]);
        }
        return d;
    }
}
