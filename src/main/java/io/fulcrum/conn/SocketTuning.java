package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.channel.unix.Socket;
import io.netty.channel.unix.UnixChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Socket options Netty has no {@code ChannelOption} for, set on the native socket (Linux values). */
public final class SocketTuning {
    private SocketTuning() {
    }

    private static final int SOL_SOCKET = 1;
    private static final int SO_BINDTODEVICE = 25;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_V6ONLY = 26;

    /** IPV6_V6ONLY: 1 for IPv6 only ({@code v6only}), 0 for dual stack ({@code v4v6}). */
    public static void v6only(Channel ch, boolean on) throws IOException {
        socket(ch, "v6only").setIntOpt(IPPROTO_IPV6, IPV6_V6ONLY, on ? 1 : 0);
    }

    /** SO_BINDTODEVICE ({@code interface}): only traffic of that interface reaches the socket. */
    public static void bindToDevice(Channel ch, String iface) throws IOException {
        byte[] name = iface.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocateDirect(name.length + 1).put(name).put((byte) 0).flip();
        socket(ch, "interface").setRawOpt(SOL_SOCKET, SO_BINDTODEVICE, b);
    }

    private static Socket socket(Channel ch, String what) throws IOException {
        if (ch instanceof UnixChannel unix && unix.fd() instanceof Socket s) {
            return s;
        }
        throw new IOException("'" + what + "' needs the native epoll transport");
    }
}
