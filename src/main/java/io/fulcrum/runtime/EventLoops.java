package io.fulcrum.runtime;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import io.netty.util.concurrent.ThreadAwareExecutor;

import java.nio.channels.spi.SelectorProvider;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loops: one per {@code nbthread}, each one HAProxy "thread". Native epoll when available,
 * NIO otherwise (then unix sockets and inherited descriptors are unavailable).
 */
public final class EventLoops {
    /** The index of the loop a thread runs, from 0 (HAProxy's thread number); 0 off the loops. */
    private static final ThreadLocal<Integer> THREAD_INDEX = ThreadLocal.withInitial(() -> 0);

    /** The activity of the loop a thread runs, null off the loops. */
    static final ThreadLocal<LoopActivity> CURRENT = new ThreadLocal<>();

    private final EventLoopGroup group;
    private final boolean epoll;
    /** Each loop's activity counters. */
    private final List<LoopActivity> activities = new CopyOnWriteArrayList<>();

    public EventLoops(int threads) {
        this.epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        IoHandlerFactory counted = new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                LoopActivity a = new LoopActivity(executor);
                activities.add(a);
                return ActivityIoHandler.wrap(io.newHandler(executor), executor, a);
            }

            @Override
            public boolean isChangingThreadSupported() {
                return io.isChangingThreadSupported();
            }
        };
        this.group = new MultiThreadIoEventLoopGroup(threads, numbered(new DefaultThreadFactory("fulcrum", false)), counted);
    }

    /** Threads that know their index (each loop makes one thread, on its first task). */
    private static ThreadFactory numbered(ThreadFactory threads) {
        AtomicInteger next = new AtomicInteger();
        return task -> {
            int index = next.getAndIncrement();
            return threads.newThread(() -> {
                THREAD_INDEX.set(index);
                task.run();
            });
        };
    }

    /** The index of the event loop running the calling thread, from 0 ({@code thread} fetch); 0 off the loops. */
    public static int threadIndex() {
        return THREAD_INDEX.get();
    }

    /** The loops' activity counters, in the order of their threads' indexes (loops not started yet last). */
    public List<LoopActivity> activities() {
        return activities.stream().sorted(java.util.Comparator.comparingInt(a -> a.index < 0 ? Integer.MAX_VALUE : a.index)).toList();
    }

    /** {@code clear counters}: each loop clears its own activity counters. */
    public void clearActivity() {
        activities.forEach(a -> a.loop.execute(a::clear));
    }

    /** The thread index of {@code loop}, 0 when it is not one of these loops or has not started. */
    public int indexOf(java.util.concurrent.Executor loop) {
        for (LoopActivity a : activities) {
            if (a.loop == loop) {
                return Math.max(0, a.index);
            }
        }
        return 0;
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
