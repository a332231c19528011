package io.fulcrum.cli;

import io.netty.channel.Channel;

/**
 * A connection to a stats socket as {@code show sess} lists it: HAProxy lists its CLI sessions among its streams.
 *
 * @param idleDeadline when the session times out waiting for a line ({@link System#nanoTime()}), Long.MAX_VALUE
 *                     while a command runs or none is awaited
 * @param lines        the lines received so far (HAProxy's {@code calls})
 */
public record CliConnection(long id, long startMillis, long startNanos, Channel channel, long lines, long idleDeadline) {
}
