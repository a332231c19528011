package io.fulcrum.mux.h1;

/**
 * Bytes of a message kept for {@code show errors}: a copy, taken when the message was refused.
 *
 * @param start the message offset of the first byte
 */
public record H1Capture(long start, byte[] bytes) {
}
