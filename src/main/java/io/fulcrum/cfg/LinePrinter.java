package io.fulcrum.cfg;

import java.util.List;

/** Prints a configuration line for an error report: sanitized, cut around the error, with a caret. */
final class LinePrinter {
    private LinePrinter() {
    }

    /** Columns of line HAProxy shows. */
    private static final int WIDTH = 80;

    /**
     * The two lines HAProxy prints under a tokenizer error, for an error at {@code column} of
     * {@code raw}, indentation dropped. While the error lies within the first 80 columns, those are
     * shown (a longer line is cut silently); further right, 37 characters on each side of the error are
     * shown between "..." marks, the caret then always under column 40. Blank characters print as
     * spaces and other unprintable bytes as '?', so a binary line yields two short printable lines.
     */
    static List<String> excerpt(String raw, int column) {
        int indent = Lexer.indent(raw);
        return excerpt("", raw.substring(indent), Math.max(0, column - indent));
    }

    /**
     * The same for a condition error: {@code prefix} (the directive and a space) is shown as is and
     * {@code text} (the expression) is cut to fit the rest of the 80 columns.
     */
    static List<String> excerpt(String prefix, String text, int column) {
        int width = WIDTH - prefix.length();
        if (column < width) {
            return List.of(prefix + sanitize(text, 0, Math.min(text.length(), width)), caret(prefix.length() + column));
        }
        int half = width / 2 - 3;
        int from = Math.min(column - half, text.length());
        String middle = sanitize(text, from, Math.max(from, Math.min(text.length(), column + half)));
        return List.of(prefix + "..." + middle + "...", caret(prefix.length() + 3 + half));
    }

    private static String caret(int column) {
        return " ".repeat(column) + "^";
    }

    private static String sanitize(String line, int from, int to) {
        StringBuilder sb = new StringBuilder(to - from);
        for (int i = from; i < to; i++) {
            char c = line.charAt(i);
            sb.append(Lexer.isSpace(c) ? ' ' : c >= 0x20 && c < 0x7f ? c : '?');
        }
        return sb.toString();
    }

    /** Longest message {@link #shorten} lets through whole. */
    private static final int MAX_MESSAGE = 300;

    /**
     * A message that echoes words of the configuration, made safe for a terminal: non-printable bytes
     * as '?', and the middle of an overlong message (a word of binary garbage) cut out. Line feeds stay: some of
     * HAProxy's messages list things on several lines (a word with an escaped line feed, rare, breaks too).
     */
    static String shorten(String message) {
        StringBuilder sb = new StringBuilder(Math.min(message.length(), MAX_MESSAGE + 3));
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            sb.append(c >= 0x20 && c < 0x7f || c == '\n' ? c : '?');
        }
        if (sb.length() > MAX_MESSAGE) {
            int tail = MAX_MESSAGE / 4;
            return sb.substring(0, MAX_MESSAGE - tail) + "..." + sb.substring(sb.length() - tail);
        }
        return sb.toString();
    }
}
