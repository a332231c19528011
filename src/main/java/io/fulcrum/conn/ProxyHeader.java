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
            return InetText.of(a);
        }
        return "::ffff:" + a.getHostAddress();
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
        return v4 || a instanceof Inet6Address ? raw : DualStack.mapped(raw);
    }
}
