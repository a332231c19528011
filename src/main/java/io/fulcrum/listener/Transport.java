package io.fulcrum.listener;

import io.fulcrum.conn.ConnError;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;

/**
 * A layer between an accepted socket and its session, such as TLS. Set on a bind line by the subsystem that
 * provides it; the listener installs it once the tcp-request connection rules accepted the connection.
 */
public interface Transport {

    /**
     * Puts the layer's handlers at the head of the pipeline of a registered connection.
     *
     * @param ready  run on the connection's loop once application data can flow (the handshake is done), before
     *               the first decoded byte is passed on: it installs the session
     * @param failed   told, once, why the connection ended before that
     * @param counters where the layer counts its handshakes (the frontend's and its listener's, null without
     *                 socket-stats)
     */
    void install(Channel ch, Runnable ready, Failure failed, Counters... counters);

    /** Why a connection ended before it carried application data. */
    @FunctionalInterface
    interface Failure {
        /**
         * @param error  why, in HAProxy's terms (its message goes to the log)
         * @param bytes  the bytes the client sent ({@code option dontlognull} skips a connection that sent none)
         */
        void failed(ConnError error, long bytes);
    }
}
