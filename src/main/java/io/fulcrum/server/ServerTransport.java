package io.fulcrum.server;

import io.fulcrum.sample.SampleContext;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.util.concurrent.Future;

/** A layer between a server connection and the mux, such as TLS: set on a server line by the subsystem providing it. */
public interface ServerTransport {

    /**
     * Puts the layer at the head of the pipeline of a connection that just connected (after any PROXY header):
     * what the mux writes from now on goes through it.
     *
     * @param stream   what a per-connection setting (the SNI expression) is evaluated on
     * @param counters where the layer counts its handshakes (the server's and its backend's)
     * @return done when the connection can carry data (the handshake is over), failed if it cannot (the channel then
     *         says why: {@link io.fulcrum.conn.ConnError#of})
     */
    Future<?> install(Channel ch, SampleContext stream, Counters... counters);

    /**
     * The name a connection for {@code stream} is opened with (the SNI a server line's {@code sni} expression gives), or
     * null; idle connections serve only requests that name the same.
     */
    default String nameFor(SampleContext stream) {
        return null;
    }

    /** Connections are named per stream ({@link #nameFor}): the name is part of what their reuse must match. */
    default boolean namesPerStream() {
        return false;
    }
}
