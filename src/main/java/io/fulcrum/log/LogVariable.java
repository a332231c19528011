package io.fulcrum.log;

import io.fulcrum.sample.SampleContext;

/** A log-format variable ({@code %ci}, {@code %HM}...): appends its value with the given flags. */
@FunctionalInterface
public interface LogVariable {
    int QUOTE = 1;
    int HEX = 2;
    int ESCAPE = 4;

    void append(SampleContext ctx, StringBuilder out, int flags);

    /** Appends {@code text} ("-" when null) with the quoting and escaping flags. */
    static void text(StringBuilder out, CharSequence text, int flags) {
        if (text == null) {
            out.append('-');
            return;
        }
        boolean quote = (flags & QUOTE) != 0;
        if (quote) {
            out.append('"');
        }
        if ((flags & ESCAPE) != 0) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"' || c == '\\' || c == ']') {
                    out.append('\\');
                }
                out.append(c);
            }
        } else {
            out.append(text);
        }
        if (quote) {
            out.append('"');
        }
    }
}
