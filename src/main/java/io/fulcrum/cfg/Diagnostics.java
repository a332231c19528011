package io.fulcrum.cfg;

import io.fulcrum.Version;

import java.io.PrintStream;

/**
 * Messages for the operator during start-up and configuration checks, in HAProxy's format:
 * {@code [ALERT]    (PID) : config : parsing [FILE:LINE] : MESSAGE}. Counts alerts and warnings so the
 * caller can decide the exit status. Quiet mode ({@code -q}) hides notices and warnings, never alerts.
 */
public final class Diagnostics {

    public enum Level {
        ALERT, WARNING, NOTICE, DIAG;

        String label() {
            return "[" + name() + "]";
        }
    }

    /** Guarded by this object's lock (a daemon leaves its terminal: {@link #detach}). */
    private PrintStream out;
    private final long pid;
    private volatile boolean quiet;
    /** The user's {@code -q}: as HAProxy's quiet mode, not even the alerts (the exit status tells). */
    private volatile boolean silent;
    private volatile boolean diagMode;
    private int alerts;
    private int warnings;
    private boolean introduced;
    /** What was shown while the process started ({@code show startup-logs}), its last {@link #STARTUP_LOG_MAX} chars. */
    private final StringBuilder startupLog = new StringBuilder();
    private boolean started;
    private static final int STARTUP_LOG_MAX = 64 * 1024;

    public Diagnostics(PrintStream out, long pid) {
        this.out = out;
        this.pid = pid;
    }

    public static Diagnostics stderr() {
        return new Diagnostics(System.err, ProcessHandle.current().pid());
    }

    /** Counts of their own, printed where these are (a master's reload judges its configuration afresh). */
    public synchronized Diagnostics fresh() {
        Diagnostics d = new Diagnostics(out, pid);
        d.quiet = quiet;
        d.silent = silent;
        d.diagMode = diagMode;
        return d;
    }

    /** A daemon that left its terminal: messages go nowhere from now on, as HAProxy's closed stdio. */
    public synchronized void detach() {
        out = new PrintStream(java.io.OutputStream.nullOutputStream());
    }

    public void quiet(boolean quiet) {
        this.quiet = quiet;
    }

    public boolean quiet() {
        return quiet;
    }

    /** {@code -q} without {@code -V}: no message at all, alerts included ({@link #quiet} keeps the alerts). */
    public void silent(boolean silent) {
        this.silent = silent;
    }

    /** Diagnostic mode ({@code -dD}): {@code .diag} messages and diagnostic warnings are shown. */
    public void diagMode(boolean diagMode) {
        this.diagMode = diagMode;
    }

    public boolean diagMode() {
        return diagMode;
    }

    public synchronized int alerts() {
        return alerts;
    }

    public synchronized int warnings() {
        return warnings;
    }

    /** Prints a message at {@code level}; a multi-line message is printed as given. */
    public synchronized void print(Level level, String message) {
        switch (level) {
            case ALERT -> alerts++;
            case WARNING -> warnings++;
            default -> { }
        }
        show(level, message);
    }

    private synchronized void show(Level level, String message) {
        if (silent || level != Level.ALERT && quiet || level == Level.DIAG && !diagMode) {
            return;
        }
        if (!introduced && !started && (level == Level.ALERT || level == Level.WARNING)) {
            // As HAProxy does, the first problem reported while starting is preceded by what reports it.
            introduced = true;
            if (!quiet) {
                print(Level.NOTICE, "Fulcrum version is " + Version.FULCRUM + " (HAProxy language " + Version.HAPROXY + ")");
            }
        }
        emit(String.format("%-10s (%d) : ", level.label(), pid) + message + "\n");
    }

    private synchronized void emit(String text) {
        out.print(text);
        out.flush();
        if (!started) {
            startupLog.append(text);
            if (startupLog.length() > STARTUP_LOG_MAX) {
                startupLog.delete(0, startupLog.length() - STARTUP_LOG_MAX);
            }
        }
    }

    /** The process is serving: what is shown from now on is not part of the start-up log. */
    public synchronized void started() {
        started = true;
    }

    /** The messages shown during start-up, as they were printed ({@code show startup-logs}). */
    public synchronized String startupLog() {
        return startupLog.toString();
    }

    public void alert(String message) {
        print(Level.ALERT, message);
    }

    public void warning(String message) {
        print(Level.WARNING, message);
    }

    public void notice(String message) {
        print(Level.NOTICE, message);
    }

    public void diag(String message) {
        print(Level.DIAG, message);
    }

    /** A configuration-wide alert without a location: {@code config : MESSAGE}. */
    public void configAlert(String message) {
        alert("config : " + message);
    }

    public void configWarning(String message) {
        warning("config : " + message);
    }

    /** An error on one line: {@code config : parsing [FILE:LINE] : MESSAGE}. */
    public void parseAlert(Source source, String message) {
        alert("config : parsing [" + source + "] : " + LinePrinter.shorten(message));
    }

    /**
     * An alert on one line that HAProxy counts as a mere warning (its ERR_WARN after ha_alert): printed as an
     * ALERT, counted as neither, so neither the exit status nor {@code -dW} sees it. The message is given whole: it
     * must echo only checked words (names), not raw configuration text.
     */
    public void parseAlertNotCounted(Source source, String message) {
        show(Level.ALERT, "config : parsing [" + source + "] : " + message);
    }

    public void parseWarning(Source source, String message) {
        warning("config : parsing [" + source + "] : " + LinePrinter.shorten(message));
    }

    /**
     * An error at a column of a line, reported as HAProxy's tokenizer does: the message, then the line
     * (sanitized and cut around the column) and a caret under the column.
     */
    public void parseAlert(Source source, String raw, int column, String message) {
        print(Level.ALERT, "config : parsing [" + source + "]: " + message + " at position " + (column + 1) + ":");
        synchronized (this) {
            for (String l : LinePrinter.excerpt(raw, column)) {
                emit("  " + l + "\n");
            }
        }
    }

    /** Reports {@code e}, found on {@code line}, with a caret when it points at a column. */
    public void report(ConfigLine line, ConfigException e) {
        if (e.isWarning() && e.isUnspaced()) {
            warning("config : parsing [" + line.source() + "]: " + LinePrinter.shorten(e.getMessage()));
        } else if (e.isWarning()) {
            parseWarning(line.source(), e.getMessage());
        } else if (e.column() >= 0) {
            parseAlert(line.source(), line.raw(), e.column(), e.getMessage());
        } else if (e.isUnspaced()) {
            alert("config : parsing [" + line.source() + "]: " + LinePrinter.shorten(e.getMessage()));
        } else if (e.isLocated()) {
            alert("config : [" + line.source() + "] : " + LinePrinter.shorten(e.getMessage()));
        } else {
            parseAlert(line.source(), e.getMessage());
        }
    }
}
