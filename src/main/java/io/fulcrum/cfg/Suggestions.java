package io.fulcrum.cfg;

import java.util.Collection;

/** "Did you mean": the known word closest to a misspelt one, or null when none is close enough. */
public final class Suggestions {
    private Suggestions() {
    }

    public static String closest(String word, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(word, candidate);
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        // Accept up to a third of the word's length in edits (at least one), as a typo, not a rewrite.
        return best != null && bestDistance <= Math.max(1, word.length() / 3) ? best : null;
    }

    /** Damerau-Levenshtein distance (optimal string alignment): a swap of two letters counts as one edit. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
