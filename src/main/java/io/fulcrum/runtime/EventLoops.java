package io.fulcrum.runtime;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;

import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loops: one per {@code nbthread}, each one HAProxy "thread". Native epoll when available,
 * NIO otherwise (then unix sockets and inherited descriptors are unavailable).
 */
public final class EventLoops {
    private final EventLoopGroup group;
    private final boolean epoll;

    public EventLoops(int threads) {
        this.epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollRegistrationFix.factory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(threads, new LoopThreads(), io);
    }

    /**
     * The index of the event loop running the calling thread, from 0 ({@code thread} fetch, per-loop stats
     * cells); 0 off the loops. A field of the thread, not a thread-local: the data path asks on every transaction.
     */
    public static int threadIndex() {
        return Thread.currentThread() instanceof LoopThread t ? t.index : 0;
    }

    /**
     * Turns reading on for {@code channel} if it is off. Why not setAutoRead(true) at once: Netty makes that an
     * atomic swap even when reading is on already, and the HTTP path asks for it several times per request.
     */
    public static void resumeReading(Channel channel) {
        if (!channel.config().isAutoRead()) {
            channel.config().setAutoRead(true);
        }
    }

    /** Makes each loop's thread (on the loop's first task), numbered in order. */
    private static final class LoopThreads extends DefaultThreadFactory {
        private final AtomicInteger next = new AtomicInteger();

        LoopThreads() {
            super("fulcrum", false);
        }

        @Override
        protected Thread newThread(Runnable task, String name) {
            return new LoopThread(threadGroup, task, name, next.getAndIncrement());
        }
    }

    /** An event loop's thread, which knows the loop's index. */
    private static final class LoopThread extends FastThreadLocalThread {
        final int index;

        LoopThread(ThreadGroup group, Runnable task, String name, int index) {
            super(group, task, name);
            this.index = index;
        }
    }

    public EventLoopGroup group() {
        return group;
    }

    /** The next loop, round robin: where a new connection lives for its whole life. */
    public EventLoop next() {
        return group.next();
    }

    public boolean isEpoll() {
        return epoll;
    }

    /** The poller's name as {@code -vv} and {@code show info} print it. */
    public String pollerName() {
        return epoll ? "epoll" : "poll";
    }

    public ServerChannel newServerSocket(SocketProtocolFamily family) {
        return epoll ? new EpollServerSocketChannel(family) : new NioServerSocketChannel(SelectorProvider.provider(), family);
    }

    /** A listening socket inherited from the parent process. */
    public ServerChannel adoptServerSocket(int fd) {
        requireEpoll("inherited file descriptors");
        return new EpollServerSocketChannel(fd);
    }

    public ServerChannel newUnixServerSocket() {
        requireEpoll("unix sockets");
        return new EpollServerDomainSocketChannel();
    }

    public Channel newSocket(SocketProtocolFamily family) {
        return epoll ? new EpollSocketChannel(family) : new NioSocketChannel(SelectorProvider.provider(), family);
    }

    /** A new, unregistered connection of the right kind for {@code address} (IPv4, IPv6 or unix). */
    public Channel newSocketFor(java.net.SocketAddress address) {
        if (address instanceof java.net.InetSocketAddress inet) {
            return newSocket(inet.getAddress() instanceof java.net.Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET);
        }
        return newUnixSocket();
    }

    public Channel newUnixSocket() {
        requireEpoll("unix sockets");
        return new EpollDomainSocketChannel();
    }

    private void requireEpoll(String what) {
        if (!epoll) {
            throw new UnsupportedOperationException(what + " need the native epoll transport, which is unavailable here: "
                    + Epoll.unavailabilityCause());
        }
    }

    public void shutdown() {
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
