package io.fulcrum.rules;

import io.fulcrum.log.LogFormat;
import io.fulcrum.sample.SampleContext;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A regex and its replacement format, as the {@code replace-*} actions use them: when the regex
 * matches (anywhere), the whole value becomes the replacement, with {@code \1}..{@code \9} standing for
 * the groups (HAProxy's {@code exp_replace}).
 */
record Replacement(Pattern regex, LogFormat replacement) {

    /** The new value, or null when the regex does not match {@code value}. */
    String apply(CharSequence value, SampleContext ctx) {
        Matcher m = regex.matcher(value);
        if (!m.find()) {
            return null;
        }
        String repl = replacement.format(ctx);
        StringBuilder out = new StringBuilder(repl.length() + 16);
        for (int i = 0; i < repl.length(); i++) {
            char c = repl.charAt(i);
            if (c == '\\' && i + 1 < repl.length() && Character.isDigit(repl.charAt(i + 1))) {
                int g = repl.charAt(++i) - '0';
                if (g <= m.groupCount() && m.group(g) != null) {
                    out.append(m.group(g));
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
