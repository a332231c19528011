package io.fulcrum.conn;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 network, as the {@code except} argument of {@code option forwardfor} and {@code option
 * originalto} gives it. An address matches only a network of its own family, as in HAProxy: an IPv4 client
 * of a dual-stack listener, seen as {@code ::ffff:a.b.c.d}, is not in {@code a.b.c.0/24}.
 */
public final class IpNetwork {
    private final byte[] network;
    private final byte[] mask;

    private IpNetwork(byte[] address, byte[] mask) {
        this.mask = mask;
        this.network = address.clone();
        for (int i = 0; i < network.length; i++) {
            network[i] &= mask[i];
        }
    }

    /**
     * Parses {@code address[/mask]} as HAProxy does: an IPv4 address (or a host name, resolved now to its
     * first IPv4 address) with a prefix length or a dotted mask, else an IPv6 address with a prefix length.
     * Returns null when it is neither.
     */
    public static IpNetwork parse(String text) {
        int slash = text.lastIndexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        String mask = slash < 0 ? null : text.substring(slash + 1);
        Inet4Address v4 = ipv4(address);
        if (v4 != null) {
            byte[] m = mask == null ? prefix(32, 4) : mask.indexOf('.') >= 0 ? dottedMask(mask) : prefix(length(mask, 32), 4);
            return m == null ? null : new IpNetwork(v4.getAddress(), m);
        }
        if (address.isEmpty() || address.indexOf(':') < 0 || address.indexOf('%') >= 0 || address.indexOf('[') >= 0) {
            return null;
        }
        byte[] m = mask == null ? prefix(128, 16) : prefix(length(mask, 128), 16);
        InetAddress v6 = literal(address);
        return m == null || v6 == null ? null : new IpNetwork(ipv6Bytes(v6), m);
    }

    /** Whether {@code a} is in this network (never for an address of the other family). */
    public boolean contains(InetAddress a) {
        byte[] raw = a.getAddress();
        if (raw.length != network.length) {
            return false;
        }
        for (int i = 0; i < raw.length; i++) {
            if ((raw[i] & mask[i]) != network[i]) {
                return false;
            }
        }
        return true;
    }

    /** An IPv4 literal (one to four parts, as inet_aton) or a host name with an IPv4 address, else null. */
    private static Inet4Address ipv4(String address) {
        if (address.isEmpty() || address.indexOf(':') >= 0) {
            return null;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(address)) {
                if (a instanceof Inet4Address v4) {
                    return v4;
                }
            }
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
        return null;
    }

    private static InetAddress literal(String address) {
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
                return null; // not a literal: no name lookup for IPv6
            }
        }
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The 16 bytes of an IPv6 literal; Java turns {@code ::ffff:a.b.c.d} into an IPv4 address, mapped back here. */
    private static byte[] ipv6Bytes(InetAddress a) {
        byte[] raw = a.getAddress();
        return raw.length == 16 ? raw : DualStack.mapped(raw);
    }

    /** A prefix length: digits only, at most {@code max}; -1 if invalid. */
    private static int length(String text, int max) {
        if (text.isEmpty() || text.length() > 3 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int n = Integer.parseInt(text);
        return n <= max ? n : -1;
    }

    private static byte[] prefix(int length, int bytes) {
        if (length < 0) {
            return null;
        }
        byte[] m = new byte[bytes];
        for (int i = 0; i < length; i++) {
            m[i / 8] |= (byte) (0x80 >>> (i % 8));
        }
        return m;
    }

    /** A dotted mask (any bits, as HAProxy takes them), or null. */
    private static byte[] dottedMask(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] m = new byte[4];
        for (int i = 0; i < 4; i++) {
            int n = length(parts[i], 255);
            if (n < 0) {
                return null;
            }
            m[i] = (byte) n;
        }
        return m;
    }
}
