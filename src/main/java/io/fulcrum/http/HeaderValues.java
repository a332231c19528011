package io.fulcrum.http;

import java.util.ArrayList;
import java.util.List;

/** Comma-separated header values, walked the way HAProxy's HTTP/1 code walks them. */
public final class HeaderValues {
    private HeaderValues() {
    }

    /**
     * One word of a value: it starts at {@code start}, is {@code length} long once trailing blanks are
     * cut, and its delimiting comma (or the end of the value) is at {@code next}.
     */
    record Word(int start, int length, int next) {
        String text(String value) {
            return value.substring(start, start + length);
        }
    }

    /**
     * The words of {@code value}: leading blanks are skipped, commas inside double quotes do not
     * delimit, and consecutive commas give empty words (as in HAProxy).
     */
    static List<Word> words(String value) {
        List<Word> words = new ArrayList<>();
        for (int i = 0; i < value.length(); i++) {
            if (isBlank(value.charAt(i))) {
                continue;
            }
            int next = end(value, i, value.length(), ',');
            int length = next - i;
            while (length > 0 && isBlank(value.charAt(i + length - 1))) {
                length--;
            }
            words.add(new Word(i, length, next));
            i = next;
        }
        return words;
    }

    /**
     * The values of every field named {@code name}, in order, as HAProxy's http_find_header() walks them word by word:
     * trimmed, quoted commas kept, and a field with an empty value giving one empty word.
     */
    public static List<String> all(HttpHeaders headers, CharSequence name) {
        List<String> out = new ArrayList<>(2);
        for (int i = headers.indexOf(name, 0); i >= 0; i = headers.indexOf(name, i + 1)) {
            String value = headers.value(i).toString();
            List<Word> words = words(value);
            if (words.isEmpty()) {
                out.add("");
            }
            for (Word w : words) {
                out.add(w.text(value));
            }
        }
        return out;
    }

    /** The value without its leading and trailing blanks. */
    public static String trim(String value) {
        int from = 0;
        int to = value.length();
        while (from < to && isBlank(value.charAt(from))) {
            from++;
        }
        while (to > from && isBlank(value.charAt(to - 1))) {
            to--;
        }
        return value.substring(from, to);
    }

    static boolean isBlank(int c) {
        return c == ' ' || c == '\t';
    }

    /**
     * The position of the {@code delimiter} ending the word at {@code from}, or {@code to}: a delimiter
     * between double quotes (where a backslash escapes the next character) does not count.
     */
    static int end(CharSequence value, int from, int to, char delimiter) {
        boolean quoted = false;
        boolean escaped = false;
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (escaped) {
                escaped = false;
            } else if (quoted) {
                escaped = c == '\\';
                quoted = c != '"';
            } else if (c == '"') {
                quoted = true;
            } else if (c == delimiter) {
                return i;
            }
        }
        return to;
    }
}
