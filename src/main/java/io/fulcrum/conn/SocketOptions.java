package io.fulcrum.conn;

import io.fulcrum.proxy.ProxyPart;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;

/**
 * A proxy's socket options ({@code option tcpka}, {@code nolinger}, {@code splice-*}, {@code socket-stats}, {@code source});
 * inherited from defaults.
 */
public final class SocketOptions implements ProxyPart {
    public boolean clientKeepAlive;
    public boolean serverKeepAlive;
    public boolean nolinger;
    /** Accepted for compatibility; zero-copy forwarding is not implemented yet. */
    public boolean spliceRequest;
    public boolean spliceResponse;
    public boolean spliceAuto;
    /** {@code option socket-stats}: each listening socket keeps counters of its own, a row of {@code show stat}. */
    public boolean socketStats;
    /** {@code source}: the local address of connections to servers without one of their own; null: the system's choice. */
    public SourceAddress source;

    @Override
    public ProxyPart inherit() {
        SocketOptions c = new SocketOptions();
        c.clientKeepAlive = clientKeepAlive;
        c.serverKeepAlive = serverKeepAlive;
        c.nolinger = nolinger;
        c.spliceRequest = spliceRequest;
        c.spliceResponse = spliceResponse;
        c.spliceAuto = spliceAuto;
        c.socketStats = socketStats;
        c.source = source;
        return c;
    }

    /**
     * Sets these options on a new connection of the client side ({@code client}) or the server side.
     * Unix sockets have none of them. Only options that differ from the kernel's defaults are set: each
     * is a system call per connection. TCP_NODELAY is not among them: Netty's socket channels turn it on
     * when they are made (outside Android).
     */
    public void applyTo(Channel ch, boolean client) {
        if (ch instanceof SocketChannel) {
            if (client ? clientKeepAlive : serverKeepAlive) {
                ch.config().setOption(ChannelOption.SO_KEEPALIVE, true);
            }
            if (nolinger) {
                ch.config().setOption(ChannelOption.SO_LINGER, 0);
            }
        }
    }
}
