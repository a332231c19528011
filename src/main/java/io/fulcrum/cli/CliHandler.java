package io.fulcrum.cli;

/** Runs one command. It runs off the event loops (a virtual thread), so it may wait for them. */
@FunctionalInterface
public interface CliHandler {
    void run(CliRequest request) throws CliException;
}
