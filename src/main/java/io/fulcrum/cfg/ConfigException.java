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

    /** True for a problem that is reported as a warning: the line is ignored but the load goes on. */
    private final boolean warning;
    /** Reported without the space HAProxy usually writes before the colon after the location. */
    private final boolean unspaced;
    /** Reported as {@code [FILE:LINE] : MESSAGE}, without the word "parsing". */
    private final boolean located;

    public ConfigException(String message, int column) {
        this(message, column, false, false, false);
    }

    private ConfigException(String message, int column, boolean warning, boolean unspaced, boolean located) {
        super(message, null, false, false);
        this.column = column;
        this.warning = warning;
        this.unspaced = unspaced;
        this.located = located;
    }

    /** A line HAProxy ignores with a warning (e.g. a frontend keyword in a backend). */
    public static ConfigException warning(String message) {
        return new ConfigException(message, -1, true, false, false);
    }

    /**
     * An error that HAProxy reports as {@code parsing [FILE:LINE]: MESSAGE}, without a space before the colon
     * (as the messages of its proxy section parser about {@code no option}, and the rule keywords' own).
     */
    public static ConfigException unspaced(String message) {
        return new ConfigException(message, -1, false, true, false);
    }

    /** A warning HAProxy words {@code parsing [FILE:LINE]: MESSAGE}, without a space before the colon. */
    public static ConfigException unspacedWarning(String message) {
        return new ConfigException(message, -1, true, true, false);
    }

    /**
     * An error that HAProxy reports as {@code config : [FILE:LINE] : MESSAGE}, without "parsing": the errors of its
     * server line parser ({@code server}, {@code default-server}, {@code server-template}).
     */
    public static ConfigException located(String message) {
        return new ConfigException(message, -1, false, false, true);
    }

    public boolean isLocated() {
        return located;
    }

    public boolean isWarning() {
        return warning;
    }

    public boolean isUnspaced() {
        return unspaced;
    }

    public int column() {
        return column;
    }
}
