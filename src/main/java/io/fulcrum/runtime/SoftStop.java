package io.fulcrum.runtime;

/**
 * The user event each client connection's pipeline gets when a soft stop begins (SIGUSR1): an idle HTTP
 * connection closes at once, a busy one after its current response; TCP sessions run to their end.
 */
public enum SoftStop {
    INSTANCE
}
