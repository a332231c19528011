package io.fulcrum.cli;

import java.util.List;

/**
 * How HAProxy measures how much typed words look like a command's (make_word_fingerprint): the counts of each
 * transition between two character classes (a letter, a digit, anything else; each word begins and ends with
 * "anything else"), plus which classes occur at all. Two texts are as far apart as these counts differ.
 */
final class WordFingerprint {
    /** HAProxy's CLI_PREFIX_KW_NB: words beyond the fifth are not compared. */
    private static final int MAX_WORDS = 5;
    private static final int OTHER = 28;

    private final int[] counts = new int[32 * 32];
    private int length;

    private WordFingerprint() {
    }

    /** The fingerprint of words, up to the fifth or the first empty one, with their total length. */
    static WordFingerprint of(List<String> words) {
        WordFingerprint f = new WordFingerprint();
        for (int i = 0; i < words.size() && i < MAX_WORDS && !words.get(i).isEmpty(); i++) {
            f.add(words.get(i));
        }
        return f;
    }

    private void add(String word) {
        int from = OTHER;
        for (int i = 0; i < word.length(); i++) {
            int to = cls(word.charAt(i));
            counts[to] = 1; // the first row tells which classes occur
            counts[32 * from + to]++;
            from = to;
        }
        counts[32 * from + OTHER]++;
        length += word.length();
    }

    private static int cls(char c) {
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 1;
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A' + 1; // as C's tolower() in HAProxy's locale: ASCII letters only
        }
        return c >= '0' && c <= '9' ? 27 : OTHER;
    }

    /** The characters fingerprinted. */
    int length() {
        return length;
    }

    int distance(WordFingerprint o) {
        int d = 0;
        for (int i = 0; i < counts.length; i++) {
            d += Math.abs(counts[i] - o.counts[i]);
        }
        return d;
    }
}
