package io.fulcrum.conn;

import io.fulcrum.sample.IpText;

import java.net.Inet6Address;
import java.net.InetAddress;

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
}
