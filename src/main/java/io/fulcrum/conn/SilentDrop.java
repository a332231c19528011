package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.IntegerUnixChannelOption;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * {@code silent-drop}: the client connection disappears without the client being told, as HAProxy does it. The socket
 * is put in TCP repair mode (needs CAP_NET_ADMIN), so that closing it sends nothing; without that, the packets of the
 * reset that closes it get a TTL of 1, which keeps them from crossing a router (not from reaching a local client).
 */
public final class SilentDrop {
    private static final ChannelOption<Integer> TCP_REPAIR = new IntegerUnixChannelOption("TCP_REPAIR", 6, 19);
    private static final ChannelOption<Integer> IP_TTL = new IntegerUnixChannelOption("IP_TTL", 0, 2);
    private static final ChannelOption<Integer> IPV6_UNICAST_HOPS = new IntegerUnixChannelOption("IPV6_UNICAST_HOPS", 41, 16);

    private SilentDrop() {
    }

    public static void close(Channel ch) {
        ch.config().setOption(ChannelOption.SO_LINGER, 0);
        if (!set(ch, TCP_REPAIR) && ch.remoteAddress() instanceof InetSocketAddress a) {
            set(ch, a.getAddress() instanceof Inet6Address ? IPV6_UNICAST_HOPS : IP_TTL);
        }
        ch.close();
    }

    /** Sets {@code option} to 1; false when the socket refuses it (no permission, not a TCP socket). */
    private static boolean set(Channel ch, ChannelOption<Integer> option) {
        try {
            return ch.config().setOption(option, 1);
        } catch (RuntimeException refused) {
            return false;
        }
    }
}
