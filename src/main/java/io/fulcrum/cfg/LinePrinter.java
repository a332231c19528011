package io.fulcrum.cfg;

import java.util.List;

/** Prints a configuration line for an error report: sanitized, cut around the error, with a caret. */
final class LinePrinter {
    private LinePrinter() {
    }

    /**
     * The two lines HAProxy prints under a tokenizer error: the raw line with non-printable bytes as
     * '?', cut to about 80 columns around {@code column} with "..." where cut, and a caret line.
     */
    static List<String> excerpt(String raw, int column) {
        // TODO(helper A): implement HAProxy's sanitize-and-cut.
        return List.of(raw, " ".repeat(Math.max(0, column)) + "^");
    }
}
