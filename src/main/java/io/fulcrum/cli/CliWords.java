package io.fulcrum.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a CLI line into commands (at each ';') and words (at spaces and tabs). A backslash makes the next
 * character plain, so "\;" and "\ " stay in a word and "\\" is one backslash.
 */
public final class CliWords {
    private CliWords() {
    }

    public static List<List<String>> split(String line) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (c == ';') {
                if (inWord) {
                    words.add(word.toString());
                }
                commands.add(words);
                words = new ArrayList<>();
                word.setLength(0);
                inWord = false;
            } else if (c == ' ' || c == '\t') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        commands.add(words);
        return commands;
    }
}
