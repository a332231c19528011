package io.fulcrum.conn;

import io.fulcrum.sample.IpText;

import io.netty.channel.unix.DomainSocketAddress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * IP addresses written as HAProxy writes them (inet_ntop): IPv4 dotted, IPv6 in the canonical form of RFC 5952.
 * Java's own IPv6 form ("2001:db8:0:0:0:0:0:1") is not the canonical one.
 */
public final class InetText {
    private InetText() {
    }

    public static String of(InetAddress a) {
        return a instanceof Inet6Address ? IpText.format6(a.getAddress(), 0) : a.getHostAddress();
    }

    /** As {@link #of}, an IPv6 address in brackets: the host part of "[::1]:80". */
    public static String bracketed(InetAddress a) {
        return a instanceof Inet6Address ? "[" + of(a) + "]" : of(a);
    }

    /** A literal IPv4 or IPv6 address, read as inet_pton() reads it (no name is resolved), or null. */
    public static InetAddress literal(String text) {
        long v4 = IpText.parse4(text);
        try {
            if (v4 >= 0) {
                return InetAddress.getByAddress(new byte[] {(byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4});
            }
            byte[] bytes = IpText.parse6(text);
            // Inet6Address, not InetAddress: an IPv4-mapped address (::ffff:127.0.0.1) stays IPv6, as inet_pton() keeps it.
            return bytes == null ? null : Inet6Address.getByAddress(null, bytes, -1);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** An address with its port as HAProxy's CLI prints it ({@code show sess}, {@code show errors}): ip:port, IPv6 without brackets. */
    public static String withPort(SocketAddress a) {
        if (a instanceof InetSocketAddress i && i.getAddress() != null) {
            return of(i.getAddress()) + ":" + i.getPort();
        }
        if (a instanceof DomainSocketAddress d) {
            return "unix:" + d.path();
        }
        return "?";
    }
}
