package io.fulcrum.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Ranks commands by how much their first words look like a mistyped request: the distance between the
 * letter-pair counts of both texts, as HAProxy's suggestions do.
 */
final class CommandSimilarity {
    private CommandSimilarity() {
    }

    /** Up to {@code max} commands near {@code args}, nearest first; none when nothing comes close. */
    static List<CliCommand> closest(List<String> args, List<CliCommand> commands, int max) {
        record Scored(CliCommand command, int distance) {
        }
        List<Scored> scored = new ArrayList<>();
        for (CliCommand c : commands) {
            int n = Math.min(args.size(), c.words().size());
            String typed = String.join(" ", args.subList(0, Math.max(n, 1)));
            String known = String.join(" ", c.words().subList(0, Math.max(n, 1)));
            int d = distance(fingerprint(typed), fingerprint(known));
            // Beyond half the letters pairs of both texts differ, the command is not a near miss.
            if (d * 2 <= typed.length() + known.length()) {
                scored.add(new Scored(c, d));
            }
        }
        return scored.stream().sorted(Comparator.comparingInt(Scored::distance)).limit(max).map(Scored::command).toList();
    }

    /** Counts of each pair of adjacent characters (letters folded to 27 classes, the ends included). */
    private static int[] fingerprint(String word) {
        int[] f = new int[28 * 28];
        int prev = 0;
        for (int i = 0; i <= word.length(); i++) {
            int cur = i == word.length() ? 0 : cls(word.charAt(i));
            f[prev * 28 + cur]++;
            prev = cur;
        }
        return f;
    }

    private static int cls(char c) {
        char l = Character.toLowerCase(c);
        return l >= 'a' && l <= 'z' ? l - 'a' + 1 : 27;
    }

    private static int distance(int[] a, int[] b) {
        int d = 0;
        for (int i = 0; i < a.length; i++) {
            d += Math.abs(a[i] - b[i]);
        }
        return d;
    }
}
