package io.fulcrum.cli;

/** A command refused: its message is shown as HAProxy's error feedback (severity "err"), nothing changed. */
public final class CliException extends Exception {
    public CliException(String message) {
        super(message, null, false, false);
    }
}
