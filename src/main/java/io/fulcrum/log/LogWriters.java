package io.fulcrum.log;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.Map;

/**
 * The sockets, streams and rings the sender writes to, opened on first use. Used by the sender thread only, so
 * writes may block it (a slow stdout): the event loops never wait, the queue fills and drops instead.
 */
final class LogWriters implements AutoCloseable {
    private DatagramChannel udp4;
    private DatagramChannel udp6;
    private Socket unix;
    private final Map<LogDestination.UnixSocket, byte[]> unixPaths = new HashMap<>();
    private final ByteBuffer direct = ByteBuffer.allocateDirect(65536 + 1);
    private final OutputStream stdout = new FileOutputStream(java.io.FileDescriptor.out);
    private final OutputStream stderr = new FileOutputStream(java.io.FileDescriptor.err);
    /** Inherited descriptors other than 1 and 2 ({@code fd@N}), written with Netty's native calls. */
    private final Map<Integer, FileDescriptor> fds = new HashMap<>();
    private final Sinks sinks;

    LogWriters(Sinks sinks) {
        this.sinks = sinks;
    }

    /** Sends {@code length} bytes of {@code data} as one message; false when it could not be sent. */
    boolean write(LogDestination d, byte[] data, int length) throws IOException {
        switch (d) {
            case LogDestination.Udp u -> {
                DatagramChannel ch = u.address().getAddress() instanceof Inet6Address ? udp6() : udp4();
                return ch.send(ByteBuffer.wrap(data, 0, length), u.address()) == length;
            }
            case LogDestination.UnixSocket s -> {
                Socket sock = unix();
                if (sock == null) {
                    return false;
                }
                direct.clear();
                direct.put(data, 0, length).flip();
                byte[] path = unixPaths.computeIfAbsent(s, LogDestination.UnixSocket::address);
                return sock.sendToDomainSocket(direct, 0, length, path) == length;
            }
            case LogDestination.Stream st -> {
                if (st.fd() > 2) {
                    return fd(st.fd(), data, length);
                }
                OutputStream out = st.fd() == 1 ? stdout : stderr;
                out.write(data, 0, length);
                out.flush();
                return true;
            }
            case LogDestination.Ring r -> {
                // A ring keeps messages without their newline.
                Ring ring = sinks.ring(r.name());
                return ring != null && ring.write(data, length - 1);
            }
            case LogDestination.Tcp t -> throw new IllegalStateException(t + " sends through its ring");
        }
    }

    /** The ring of a {@code ring@} (or {@code tcp@}) target, or null. */
    Ring ring(LogDestination.Ring r) {
        return sinks.ring(r.name());
    }

    /** One write per message, as HAProxy's writev(): a message is never cut by another one (up to PIPE_BUF). */
    private boolean fd(int n, byte[] data, int length) throws IOException {
        if (!Epoll.isAvailable()) {
            return false;
        }
        FileDescriptor fd = fds.computeIfAbsent(n, FileDescriptor::new);
        direct.clear();
        direct.put(data, 0, length).flip();
        return fd.write(direct, 0, length) == length;
    }

    private DatagramChannel udp4() throws IOException {
        return udp4 != null ? udp4 : (udp4 = DatagramChannel.open(StandardProtocolFamily.INET));
    }

    private DatagramChannel udp6() throws IOException {
        return udp6 != null ? udp6 : (udp6 = DatagramChannel.open(StandardProtocolFamily.INET6));
    }

    /** The unix datagram socket (Java has none: Netty's native one), or null without the native transport. */
    private Socket unix() {
        if (unix == null && Epoll.isAvailable()) {
            unix = Socket.newSocketDomainDgram();
        }
        return unix;
    }

    @Override
    public void close() {
        try {
            if (udp4 != null) {
                udp4.close();
            }
            if (udp6 != null) {
                udp6.close();
            }
            if (unix != null) {
                unix.close();
            }
        } catch (IOException e) {
            // closing: nothing left to do with them
        }
    }
}
