package io.fulcrum.conn;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Builds the PROXY protocol header a server gets first with {@code send-proxy} (v1, text) or
 * {@code send-proxy-v2} (binary), per HAProxy's proxy-protocol.txt. Addresses that are not IP (unix
 * sockets) are sent as UNKNOWN (v1) or LOCAL (v2), as HAProxy does.
 */
public final class ProxyHeader {
    private ProxyHeader() {
    }

    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    public static ByteBuf encode(int version, SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        return version == 1 ? v1(src, dst, alloc) : v2(src, dst, alloc);
    }

    private static ByteBuf v1(SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        String line;
        if (src instanceof InetSocketAddress s && dst instanceof InetSocketAddress d) {
            InetAddress sa = s.getAddress();
            InetAddress da = d.getAddress();
            boolean v4 = sa instanceof Inet4Address && da instanceof Inet4Address;
            line = "PROXY " + (v4 ? "TCP4 " : "TCP6 ") + text(sa, v4) + " " + text(da, v4) + " " + s.getPort() + " " + d.getPort() + "\r\n";
        } else {
            line = "PROXY UNKNOWN\r\n";
        }
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return alloc.buffer(b.length).writeBytes(b);
    }

    /** The textual address; an IPv4 address next to an IPv6 one is written in its mapped form. */
    private static String text(InetAddress a, boolean v4) {
        if (v4) {
            return a.getHostAddress();
        }
        if (a instanceof Inet6Address) {
            return ipv6(a.getAddress());
        }
        return "::ffff:" + a.getHostAddress();
    }

    /**
     * An IPv6 address in the canonical text form HAProxy writes (inet_ntop, RFC 5952): lower-case groups
     * without leading zeros, the longest run of two or more zero groups (the first of equal runs) as "::",
     * and the last 32 bits dotted when the address embeds an IPv4 one (::a.b.c.d, ::ffff:a.b.c.d).
     * Java's own form ("2001:db8:0:0:0:0:0:1") is not the canonical one.
     */
    static String ipv6(byte[] raw) {
        int[] w = new int[8];
        for (int i = 0; i < 8; i++) {
            w[i] = (raw[2 * i] & 0xff) << 8 | raw[2 * i + 1] & 0xff;
        }
        int best = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (w[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && w[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                best = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            best = -1;
        }
        boolean embedsV4 = best == 0 && (bestLen == 6 || bestLen == 5 && w[5] == 0xffff);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == best) {
                sb.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            if (embedsV4 && i == 6) {
                sb.append(raw[12] & 0xff).append('.').append(raw[13] & 0xff).append('.')
                        .append(raw[14] & 0xff).append('.').append(raw[15] & 0xff);
                break;
            }
            sb.append(Integer.toHexString(w[i]));
            if (i < 7) {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    private static ByteBuf v2(SocketAddress src, SocketAddress dst, ByteBufAllocator alloc) {
        ByteBuf b = alloc.buffer(16 + 36);
        b.writeBytes(V2_SIGNATURE);
        if (src instanceof InetSocketAddress s && dst instanceof InetSocketAddress d) {
            InetAddress sa = s.getAddress();
            InetAddress da = d.getAddress();
            boolean v4 = sa instanceof Inet4Address && da instanceof Inet4Address;
            b.writeByte(0x21); // version 2, PROXY
            b.writeByte(v4 ? 0x11 : 0x21); // TCP over IPv4 / IPv6
            b.writeShort(v4 ? 12 : 36);
            b.writeBytes(bytes(sa, v4)).writeBytes(bytes(da, v4));
            b.writeShort(s.getPort()).writeShort(d.getPort());
        } else {
            b.writeByte(0x20); // version 2, LOCAL
            b.writeByte(0x00);
            b.writeShort(0);
        }
        return b;
    }

    /** The raw address, IPv4 mapped into IPv6 when the other address is IPv6. */
    private static byte[] bytes(InetAddress a, boolean v4) {
        byte[] raw = a.getAddress();
        if (v4 || a instanceof Inet6Address) {
            return raw;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(raw, 0, mapped, 12, 4);
        return mapped;
    }
}
