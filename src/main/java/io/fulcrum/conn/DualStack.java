package io.fulcrum.conn;

import io.netty.channel.Channel;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * The addresses of a connection accepted on a dual-stack (IPv6) socket as HAProxy sees them: an IPv4 peer is an
 * IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}), which it writes so in X-Forwarded-For and PROXY headers.
 * Netty reports such addresses as IPv4 ones.
 */
public final class DualStack {
    private DualStack() {
    }

    /** {@code address} (an end of {@code child}) in its mapped form when {@code child} was accepted on an IPv6 socket. */
    public static SocketAddress asSeen(Channel child, SocketAddress address) {
        if (address instanceof InetSocketAddress a && a.getAddress() instanceof Inet4Address v4
                && child.parent() != null && child.parent().localAddress() instanceof InetSocketAddress l
                && l.getAddress() instanceof Inet6Address) {
            try {
                return new InetSocketAddress(Inet6Address.getByAddress(null, mapped(v4.getAddress()), -1), a.getPort());
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // 16 bytes are always an IPv6 address
            }
        }
        return address;
    }

    /** The IPv4-mapped IPv6 form ({@code ::ffff:a.b.c.d}) of an IPv4 address's 4 bytes. */
    static byte[] mapped(byte[] ipv4) {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, mapped, 12, 4);
        return mapped;
    }
}
