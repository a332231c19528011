package io.fulcrum.listener;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.net.SocketAddress;

/** What a frontend's mode does with a new client connection (a TCP session, an HTTP/1 connection...). */
@FunctionalInterface
public interface SessionStarter {

    /**
     * Installs the session's handlers on {@code client}, before it is registered with its event loop (or,
     * with {@code accept-proxy}, once the PROXY header has been read), and returns what to run once it is
     * registered.
     *
     * @param source      the client's address, from the PROXY header with {@code accept-proxy}
     * @param destination the address the client connected to (idem)
     * @param early       bytes the client sent right after the PROXY header, or null; the session owns them
     */
    Runnable install(Channel client, SocketAddress source, SocketAddress destination, ByteBuf early);
}
