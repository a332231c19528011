package io.fulcrum.cfg;

import java.util.List;

/**
 * One logical configuration line: where it came from, its raw text and its words. Keyword parsers read
 * their arguments from it; {@link #arg(int)} returns "" past the end, as HAProxy's {@code args[]} does.
 * A parser that accepts the line but has something to say about it calls {@link #warn(String)}.
 */
public record ConfigLine(Source source, String raw, List<Token> tokens, Diagnostics diag) {

    public ConfigLine {
        tokens = List.copyOf(tokens);
    }

    public int size() {
        return tokens.size();
    }

    /** The word at {@code index}, or "" when the line is shorter. */
    public String arg(int index) {
        return index < tokens.size() ? tokens.get(index).text() : "";
    }

    /** True when the line has a word at {@code index}. */
    public boolean has(int index) {
        return index < tokens.size();
    }

    /** The keyword: the first word. */
    public String keyword() {
        return arg(0);
    }

    /** This line without its first {@code n} words, keeping source and raw text (for prefixes like "no" or "option"). */
    public ConfigLine shift(int n) {
        return new ConfigLine(source, raw, tokens.subList(Math.min(n, tokens.size()), tokens.size()), diag);
    }

    /** Reports a warning on this line; parsing goes on. */
    public void warn(String message) {
        if (diag != null) {
            diag.parseWarning(source, message);
        }
    }

    /** Reports a warning HAProxy words {@code parsing [FILE:LINE]: MESSAGE}, without a space before the colon; parsing goes on. */
    public void warnUnspaced(String message) {
        if (diag != null) {
            diag.report(this, ConfigException.unspacedWarning(message));
        }
    }

    /** Reports on this line an alert that HAProxy counts as a warning (see Diagnostics); parsing goes on. */
    public void alertNotCounted(String message) {
        if (diag != null) {
            diag.parseAlertNotCounted(source, message);
        }
    }

    /** The words from {@code from} to the end, joined by single spaces. */
    public String join(int from) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < tokens.size(); i++) {
            if (i > from) {
                sb.append(' ');
            }
            sb.append(tokens.get(i).text());
        }
        return sb.toString();
    }
}
