package io.fulcrum.cfg;

/**
 * A configuration error. Keyword parsers throw it with a message only; the reader adds the file and
 * line. An error found at a precise place in the raw line (the lexer's) also carries that column, and
 * is then reported with the line and a caret, as HAProxy does.
 */
public class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Column of the error in the raw line, or -1 when the whole line is concerned. */
    private final int column;

    public ConfigException(String message) {
        this(message, -1);
    }

    public ConfigException(String message, int column) {
        super(message, null, false, false);
        this.column = column;
    }

    public int column() {
        return column;
    }
}
