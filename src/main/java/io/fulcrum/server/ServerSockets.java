package io.fulcrum.server;

import io.fulcrum.conn.SocketTuning;
import io.fulcrum.runtime.BufferOwner;
import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.socket.SocketChannel;

import java.io.IOException;
import java.net.SocketAddress;

/**
 * The sockets of the connections carrying traffic to a server: made in its network namespace ({@code namespace}), with
 * the socket options its line sets ({@code tcp-ut}, {@code tfo}) before they connect. Health checks go without: a check may have nothing to send, and a fast open connect waits for data to send
 * its SYN.
 */
public final class ServerSockets {
    private ServerSockets() {
    }

    /** A new, unregistered socket for a connection to {@code server} at {@code address}, in the server's namespace. */
    public static Channel open(EventLoops loops, SocketAddress address, ServerSpec server) {
        Channel ch = server.namespace == null ? loops.newSocketFor(address) : server.namespace.inside(() -> loops.newSocketFor(address));
        ch.config().setAllocator(BufferOwner.SERVER);
        return ch;
    }

    /** Sets {@code server}'s options on {@code ch}, a new socket; as HAProxy, an option the system refuses is left to it. */
    public static void apply(Channel ch, ServerSpec server) {
        if (!(ch instanceof SocketChannel)) {
            return; // unix sockets have neither
        }
        try {
            if (server.tcpUserTimeout > 0) {
                SocketTuning.userTimeout(ch, server.tcpUserTimeout);
            }
            if (server.tfo) {
                SocketTuning.fastOpenConnect(ch);
            }
        } catch (IOException e) {
            // not the native transport, or an old kernel: the connection goes without
        }
    }
}
