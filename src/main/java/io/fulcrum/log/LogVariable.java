package io.fulcrum.log;

import io.fulcrum.sample.SampleContext;

/** A log-format variable ({@code %ci}, {@code %HM}...): appends its value with the given flags. */
@FunctionalInterface
public interface LogVariable {
    int QUOTE = 1;
    int HEX = 2;
    int ESCAPE = 4;
    /**
     * HTTP rules' values ({@code set-header}, {@code lf-string}, {@code redirect}...): a sample's control
     * characters but HTAB, and DEL, are written "%XX", as HAProxy's LOG_OPT_HTTP does, so that they cannot
     * break a header line. Not in log lines, TCP rules nor {@code set-var-fmt}.
     */
    int HTTP = 8;

    void append(SampleContext ctx, StringBuilder out, int flags);

    /** Appends {@code text} ("-" when null, or {@code ""} when quoted) with the quoting and escaping flags. */
    static void text(StringBuilder out, CharSequence text, int flags) {
        LogText.append(out, text, flags, null);
    }
}
