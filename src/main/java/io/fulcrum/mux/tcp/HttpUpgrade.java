package io.fulcrum.mux.tcp;

import io.fulcrum.backend.Backend;
import io.fulcrum.log.StreamLog;
import io.netty.channel.ChannelHandler;

/**
 * Makes what takes over a TCP session's client connection when the session becomes HTTP: its backend is in mode http,
 * or a {@code tcp-request content switch-mode http} rule said so. HAProxy upgrades such a stream in place to HTTP/1.
 */
@FunctionalInterface
public interface HttpUpgrade {

    /**
     * @param backend the backend the frontend's switching rules chose, or null: they run on each request (switch-mode)
     * @param log     the session's record, which becomes its first request's
     * @return the HTTP/1 connection's handler, put in the session's place; the bytes read so far are passed to it
     */
    ChannelHandler handler(Backend backend, StreamLog log);
}
