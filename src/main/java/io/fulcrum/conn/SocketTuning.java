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
    private static final int IPPROTO_IP = 0;
    private static final int IP_TRANSPARENT = 19;
    private static final int IPV6_TRANSPARENT = 75;
    private static final int IP_FREEBIND = 15;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_MAXSEG = 2;
    private static final int TCP_QUICKACK = 12;
    private static final int TCP_USER_TIMEOUT = 18;
    private static final int TCP_FASTOPEN_CONNECT = 30;

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

    /**
     * TCP_MAXSEG ({@code mss}): the segment size a listening socket advertises; a negative {@code mss} lowers the
     * system's by that much, as HAProxy does.
     */
    public static void maxSegment(Channel ch, int mss) throws IOException {
        Socket s = socket(ch, "mss");
        s.setIntOpt(IPPROTO_TCP, TCP_MAXSEG, mss > 0 ? mss : s.getIntOpt(IPPROTO_TCP, TCP_MAXSEG) + mss);
    }

    /**
     * TCP_QUICKACK off on a listening socket ({@code option tcp-smart-accept}): the connections it accepts start with
     * delayed acknowledgements, so that the ACK of the handshake leaves with the first data. Set once on the listener
     * as HAProxy does, not on each connection (Linux copies the state to the accepted sockets).
     */
    public static void delayedAck(Channel ch) throws IOException {
        socket(ch, "tcp-smart-accept").setIntOpt(IPPROTO_TCP, TCP_QUICKACK, 0);
    }

    /** TCP_USER_TIMEOUT ({@code tcp-ut}), in ms: how long sent data may stay unacknowledged before the connection dies. */
    public static void userTimeout(Channel ch, int ms) throws IOException {
        socket(ch, "tcp-ut").setIntOpt(IPPROTO_TCP, TCP_USER_TIMEOUT, ms);
    }

    /** TCP_FASTOPEN_CONNECT (server {@code tfo}): connect() returns at once, the SYN leaves with the first data. */
    public static void fastOpenConnect(Channel ch) throws IOException {
        socket(ch, "tfo").setIntOpt(IPPROTO_TCP, TCP_FASTOPEN_CONNECT, 1);
    }

    /**
     * {@code transparent}: the socket may bind an address that is not local. As HAProxy, IP_TRANSPARENT (or
     * IPV6_TRANSPARENT) first, which takes CAP_NET_ADMIN, else IP_FREEBIND, which any process may set.
     */
    public static void transparent(Channel ch, boolean v6) throws IOException {
        Socket s = socket(ch, "transparent");
        try {
            if (v6) {
                s.setIntOpt(IPPROTO_IPV6, IPV6_TRANSPARENT, 1);
            } else {
                s.setIntOpt(IPPROTO_IP, IP_TRANSPARENT, 1);
            }
        } catch (IOException e) {
            s.setIntOpt(IPPROTO_IP, IP_FREEBIND, 1);
        }
    }

    /**
     * Stops a listening TCP socket listening, keeping it bound: connects to it are refused (its queued connections are
     * reset) until {@link #listenAgain}. HAProxy's pause does it with shutdown(SHUT_RD); Netty's shutdown would mark
     * its socket shut for good, so this takes the equivalent connect(AF_UNSPEC), which Linux answers the same way
     * (both are tcp_disconnect on a listening socket).
     */
    public static void stopListening(Channel ch) throws IOException {
        socket(ch, "disable frontend").disconnect();
    }

    /** Listens again on a socket {@link #stopListening} stopped. */
    public static void listenAgain(Channel ch, int backlog) throws IOException {
        socket(ch, "enable frontend").listen(backlog);
    }

    /** A TCP-level option's value (TCP_MAXSEG, TCP_USER_TIMEOUT...), for tests and diagnostics. */
    public static int tcpOption(Channel ch, int option) throws IOException {
        return socket(ch, "getsockopt").getIntOpt(IPPROTO_TCP, option);
    }

    private static Socket socket(Channel ch, String what) throws IOException {
        if (ch instanceof UnixChannel unix && unix.fd() instanceof Socket s) {
            return s;
        }
        throw new IOException("'" + what + "' needs the native epoll transport");
    }
}
