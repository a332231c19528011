package io.fulcrum.log;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The sockets and streams the sender writes to, opened on first use. Used by the sender thread only, so
 * writes may block it (a slow stdout): the event loops never wait, the queue fills and drops instead.
 */
final class LogWriters implements AutoCloseable {
    private DatagramChannel udp4;
    private DatagramChannel udp6;
    private Socket unix;
    private final Map<String, byte[]> unixPaths = new HashMap<>();
    private final ByteBuffer direct = ByteBuffer.allocateDirect(65536 + 1);
    private final OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    private final OutputStream stderr = new FileOutputStream(FileDescriptor.err);

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
                byte[] path = unixPaths.computeIfAbsent(s.path(), p -> p.getBytes(StandardCharsets.UTF_8));
                return sock.sendToDomainSocket(direct, 0, length, path) == length;
            }
            case LogDestination.Stream st -> {
                OutputStream out = st.fd() == 1 ? stdout : stderr;
                out.write(data, 0, length);
                out.flush();
                return true;
            }
        }
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
