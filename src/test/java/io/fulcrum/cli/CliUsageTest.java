package io.fulcrum.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code help} and the answer to an unknown command, given HAProxy 2.6's own command table, are word for word what
 * haproxy 2.6 answers: both are recorded in haproxy-cli-help.txt by tools/gen-haproxy-cli-help.py.
 */
class CliUsageTest {

    @Test
    void helpAndUnknownCommandsAnswerAsHaproxy() throws IOException {
        String text;
        try (InputStream in = getClass().getResourceAsStream("haproxy-cli-help.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] parts = text.split("\n%%\n", 2);
        CliCommands haproxy = new CliCommands();
        List<CliCommand> table = new ArrayList<>();
        for (String line : parts[0].split("\n")) {
            String[] f = line.split("\t");
            CliCommand.Mode mode = CliCommand.Mode.valueOf(f[3].toUpperCase());
            haproxy.add(f[0], f[1].equals("-") ? null : f[1], f[2].equals("-") ? null : f[2], CliLevel.USER, mode, r -> { });
            table.add(haproxy.find(List.of(f[0].split(" "))));
        }
        int ties = 0;
        Map<String, String> answers = new LinkedHashMap<>();
        String probe = null;
        StringBuilder answer = new StringBuilder();
        for (String line : (parts[1] + "=== \n").split("\n")) {
            if (line.startsWith("=== ")) {
                if (probe != null) {
                    answers.put(probe, answer.toString());
                }
                probe = line.substring(4);
                answer.setLength(0);
            } else {
                answer.append(line).append('\n');
            }
        }
        assertThat(answers).hasSizeGreaterThan(30);
        for (Map.Entry<String, String> e : answers.entrySet()) {
            List<String> words = new ArrayList<>(List.of(e.getKey().split("; ")));
            boolean expert = words.remove("expert-mode on");
            boolean experimental = words.remove("experimental-mode on");
            List<String> args = new ArrayList<>(List.of(words.getFirst().split(" ")));
            boolean help = args.getFirst().equals("help");
            String expected = e.getValue().substring(expert || experimental ? 1 : 0); // the mode's own empty answer
            List<String> typed = help ? args.subList(1, args.size()) : args;
            Predicate<CliCommand.Mode> modes = m -> switch (m) {
                case NORMAL -> true;
                case EXPERT -> expert;
                case EXPERIMENTAL -> experimental;
            };
            String ours = haproxy.usage(typed, help, modes);
            if (!ours.equals(expected)) {
                assertThat(onlyTies(table, typed, modes, ours, expected)).as(e.getKey() + "\n" + ours + "\nhaproxy:\n" + expected).isTrue();
                ties++;
            }
        }
        assertThat(ties).as("answers that differ by equally near commands").isLessThan(answers.size() / 4);
    }

    /**
     * Among equally near commands HAProxy keeps the first it registered, in an order that is not observable: two
     * answers may differ by such commands only (all equally near, none nearer than a command both show).
     */
    private static boolean onlyTies(List<CliCommand> table, List<String> typed, Predicate<CliCommand.Mode> modes, String ours,
            String theirs) {
        Set<String> a = new HashSet<>(ours.lines().toList());
        Set<String> b = new HashSet<>(theirs.lines().toList());
        List<CliCommand> visible = table.stream().filter(c -> modes.test(c.mode())).toList();
        int length = visible.stream().mapToInt(c -> c.matchingWords(typed)).max().orElse(0);
        WordFingerprint t = WordFingerprint.of(typed.subList(length, typed.size()));
        Map<String, Integer> distance = new HashMap<>();
        for (CliCommand c : visible) {
            if (c.usage() != null && c.matchingWords(typed) == length && c.words().size() >= length) {
                distance.put(c.helpLine().stripTrailing(), t.distance(WordFingerprint.of(c.words().subList(length, c.words().size()))));
            }
        }
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        int farthest = both.stream().filter(distance::containsKey).mapToInt(distance::get).max().orElse(-1);
        Set<String> differ = new HashSet<>(a);
        differ.addAll(b);
        differ.removeAll(both);
        Set<Integer> tie = new HashSet<>();
        differ.forEach(l -> tie.add(distance.getOrDefault(l, -1)));
        return a.size() == b.size() && tie.size() == 1 && tie.iterator().next() >= farthest;
    }
}
