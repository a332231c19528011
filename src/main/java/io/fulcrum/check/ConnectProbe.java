package io.fulcrum.check;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.Socket;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A check's bare TCP connect (nothing sent, nothing read) on an epoll loop, without a Netty channel. Why: with
 * thousands of checks a second, what a channel costs around the handshake is most of the proxy's share of it: its
 * pipeline, promises and config, the exception its close makes while its connect promise is being completed, and
 * seven system calls the probe does not make (TCP_NODELAY set, SO_SNDBUF and SO_LINGER read, the local and peer
 * addresses, SO_ERROR read after a successful connect, the descriptor removed from epoll before closing it). The
 * probe makes seven: socket, getsockname (Netty's socket asks its family), the two options below, connect, one
 * epoll_ctl, close; HAProxy makes about as many (it sets TCP_NODELAY and O_NONBLOCK, and connects again to learn
 * the outcome).
 *
 * <p>As HAProxy, the handshake's last ACK is delayed and the close resets (SO_LINGER 0), so the server's
 * application never sees the check and no TIME_WAIT is left here. It runs on its loop only.
 */
final class ConnectProbe implements EpollIoHandle {
    /** IPPROTO_TCP and TCP_QUICKACK of linux/tcp.h. */
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_QUICKACK = 12;
    /** An event with these did not just say "writable": SO_ERROR tells whether the connect failed. */
    private static final int TROUBLE = EpollIoOps.EPOLLERR.value() | EpollIoOps.EPOLLRDHUP.value() | 0x10; // EPOLLHUP

    private ProbeSocket socket;
    /** Told once: null when connected, else why the connect failed. */
    private Consumer<IOException> done;
    private IoRegistration registration;

    /** A probe that tells {@code done} how its {@link #connect} ends, unless it is closed first. */
    ConnectProbe(Consumer<IOException> done) {
        this.done = done;
    }

    /** Whether {@code loop} takes probes (an epoll loop; NIO loops, {@code noepoll}, do not). */
    static boolean usable(EventLoop loop) {
        return loop instanceof IoEventLoop l && l.isCompatible(ConnectProbe.class);
    }

    /**
     * Connects to {@code to} from {@code loop}, which runs the caller and is {@link #usable}. The outcome is told on
     * the loop, possibly before this returns (a connect that fails or succeeds at once).
     */
    void connect(EventLoop loop, InetSocketAddress to) {
        try {
            socket = ProbeSocket.open(to.getAddress() instanceof Inet6Address);
        } catch (RuntimeException e) { // the native call reports a failed socket() unchecked
            tell(e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e));
            return;
        }
        try {
            socket.setSoLinger(0);
            socket.setIntOpt(IPPROTO_TCP, TCP_QUICKACK, 0);
            if (socket.connect(to)) {
                tell(null);
                return;
            }
        } catch (IOException e) {
            tell(e);
            return;
        }
        Future<IoRegistration> r = ((IoEventLoop) loop).register(this);
        if (!r.isSuccess()) { // registering from the loop itself is done at once
            tell(new IOException("registration failed", r.cause()));
            return;
        }
        registration = r.getNow();
        registration.submit(EpollIoOps.EPOLLOUT);
    }

    @Override
    public void handle(IoRegistration r, IoEvent event) {
        if (done == null) {
            return;
        }
        int ops = ((EpollIoEvent) event).ops().value();
        if ((ops & TROUBLE) == 0) {
            tell(null); // writable without error nor hang-up: established (SO_ERROR would read 0)
            return;
        }
        try {
            if (socket.finishConnect()) {
                tell(null);
            }
        } catch (IOException e) {
            tell(e);
        }
    }

    /** Closes the socket, then leaves epoll: the close took it out of the set already (no epoll_ctl). */
    @Override
    public void close() {
        done = null;
        if (socket != null && socket.isOpen()) {
            try {
                socket.close();
            } catch (IOException e) {
                // the descriptor is released anyway
            }
        }
        if (registration != null) {
            registration.cancel();
            registration = null;
        }
    }

    @Override
    public FileDescriptor fd() {
        return socket;
    }

    private void tell(IOException failure) {
        Consumer<IOException> d = done;
        if (d != null) {
            if (failure != null) {
                close(); // before the caller's words: it may start another probe, which may reuse the descriptor
            }
            done = null;
            d.accept(failure);
        }
    }

    /** A TCP socket of the family asked: Netty's own factory takes the system's preferred one. */
    private static final class ProbeSocket extends Socket {
        private ProbeSocket(int fd) {
            super(fd);
        }

        static ProbeSocket open(boolean ipv6) {
            return new ProbeSocket(newSocketStream0(ipv6));
        }
    }
}
