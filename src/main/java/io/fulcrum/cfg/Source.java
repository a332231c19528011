package io.fulcrum.cfg;

/** Where a configuration line came from: a file name as given by the user, and a 1-based line number. */
public record Source(String file, int line) {
    /** HAProxy's location format, {@code FILE:LINE}. */
    @Override
    public String toString() {
        return file + ":" + line;
    }
}
