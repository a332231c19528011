package io.fulcrum.conn;

import io.fulcrum.proxy.ProxyPart;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;

import java.util.List;

/**
 * A proxy's socket options ({@code option tcpka}, {@code nolinger}, {@code splice-*}, {@code socket-stats}, {@code source},
 * {@code tcp-smart-accept|connect}, the keepalive tunables);
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
    /** {@code clitcpka-cnt|idle|intvl}, {@code srvtcpka-*}: the keepalive probes' count and delays (seconds); 0: the system's. */
    public final int[] clientKeepAliveTuning = new int[3];
    public final int[] serverKeepAliveTuning = new int[3];
    /** {@code tune.rcvbuf.client}, {@code tune.sndbuf.client} and the server ones (global): SO_RCVBUF, SO_SNDBUF; 0: the system's. */
    public final int[] clientBuffers = new int[2];
    public final int[] serverBuffers = new int[2];
    /** {@code option tcp-smart-accept}: null follows the mode (on in HTTP); {@code option tcp-smart-connect}. */
    public Boolean smartAccept;
    public boolean smartConnect;
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
        System.arraycopy(clientKeepAliveTuning, 0, c.clientKeepAliveTuning, 0, 3);
        System.arraycopy(serverKeepAliveTuning, 0, c.serverKeepAliveTuning, 0, 3);
        System.arraycopy(clientBuffers, 0, c.clientBuffers, 0, 2);
        System.arraycopy(serverBuffers, 0, c.serverBuffers, 0, 2);
        c.smartAccept = smartAccept;
        c.smartConnect = smartConnect;
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
                keepAliveTuning(ch, client ? clientKeepAliveTuning : serverKeepAliveTuning);
            }
            if (nolinger) {
                ch.config().setOption(ChannelOption.SO_LINGER, 0);
            }
            int[] buffers = client ? clientBuffers : serverBuffers;
            if (buffers[0] > 0) {
                ch.config().setOption(ChannelOption.SO_RCVBUF, buffers[0]);
            }
            if (buffers[1] > 0) {
                ch.config().setOption(ChannelOption.SO_SNDBUF, buffers[1]);
            }
            // As HAProxy: no immediate ACK, so that it goes with the request (tcp-smart-accept is set on the listener).
            if (!client && smartConnect) {
                NativeOptions.quickAck(ch, false);
            }
        }
    }

    /**
     * As HAProxy, only the values that were given, each silently left to the system when it refuses them (in the
     * order of {@link #clientKeepAliveTuning}'s places).
     */
    private static void keepAliveTuning(Channel ch, int[] t) {
        NativeOptions o = NativeOptions.of(ch);
        for (int i = 0; i < 3; i++) {
            if (t[i] > 0 && o != null) {
                ch.config().setOption(o.keepAliveTuning().get(i), t[i]);
            }
        }
    }
}
