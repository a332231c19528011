package io.fulcrum.runtime;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoEventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loops: one per {@code nbthread}, each one HAProxy "thread". Native io_uring or epoll ({@link PollerChoice}),
 * NIO without either or with {@code noepoll} (then unix sockets and inherited descriptors are unavailable).
 */
public final class EventLoops {
    /**
     * How the loops poll: {@code noepoll} (or {@code -de}) takes the JDK's NIO selector, {@code io-uring} Linux's
     * io_uring, {@code busy-polling} never sleeps (epoll only), {@code tune.maxpollevents} caps the events taken per
     * poll (epoll only; 0: Netty's own).
     */
    public record Poller(boolean noEpoll, boolean ioUring, boolean busy, int maxEvents) {
        /** Native epoll, sleeping, Netty's event array. */
        public static final Poller DEFAULT = new Poller(false, false, false, 0);
    }

    /**
     * Where and how the system runs the loops' threads: {@code cpu-map}'s CPUs, and {@code sched-batch} (Linux's
     * SCHED_BATCH policy, see {@link GlobalSettings#schedBatch}).
     */
    public record Placement(CpuMap cpus, boolean batch) {
        /** Any CPU, the system's default policy. */
        public static Placement anywhere() {
            return new Placement(new CpuMap(), false);
        }
    }

    /** The I/O engine under the loops. */
    public enum Engine {
        EPOLL("epoll"), IO_URING("io_uring"), NIO("poll");

        /** As {@code -vv} names it. */
        public final String label;

        Engine(String label) {
            this.label = label;
        }

        /**
         * The engine {@code poller} asks for when this system has it, else the best one it has (the {@code io-uring}
         * keyword refuses an unavailable io_uring itself: only the test property reaches here without it).
         */
        static Engine of(Poller poller) {
            if (poller.noEpoll()) {
                return NIO;
            }
            if (poller.ioUring() && IoUring.isAvailable()) {
                return IO_URING;
            }
            return Epoll.isAvailable() ? EPOLL : NIO;
        }
    }

    private final EventLoopGroup group;
    private final Engine engine;
    /** The loop of the stats sockets on unix paths, when it is not one of these ({@link #forUnixCli()}); made once asked. */
    private volatile EventLoops unixCli;
    private volatile List<EventLoop> loopList;
    private final boolean multiQueue;
    /** Each loop's activity counters. */
    private final List<LoopActivity> activities = new CopyOnWriteArrayList<>();
    /** Each loop's queue of tasks to run ({@code show tasks}). */
    private final Map<Object, Queue<Runnable>> taskQueues = new ConcurrentHashMap<>();

    /**
     * @param multiQueue {@code tune.listener.multi-queue}: whether a connection may go to a less busy loop than
     *                   the one that accepted it
     * @param placement  where and how the system runs each loop's thread
     * @param poller     how the loops poll
     */
    public EventLoops(int threads, boolean multiQueue, Placement placement, Poller poller) {
        this(threads, multiQueue, new LoopThreads(placement.cpus()), poller);
        if (placement.batch()) {
            List<Future<Integer>> ids = all().stream().map(l -> l.submit(SchedBatch::currentTid)).toList();
            SchedBatch.apply(ids.stream().map(f -> f.syncUninterruptibly().getNow()).toList());
        }
    }

    private EventLoops(int threads, boolean multiQueue, java.util.concurrent.ThreadFactory factory, Poller poller) {
        this.engine = Engine.of(poller);
        this.multiQueue = multiQueue;
        // Busy polling: a loop with nothing to run polls again at once instead of sleeping in epoll_wait (as HAProxy,
        // the NIO selector ignores it). maxEvents 0 is Netty's array sized to the load.
        SelectStrategyFactory strategy = poller.busy()
                ? () -> (selectNow, hasTasks) -> hasTasks ? selectNow.get() : SelectStrategy.BUSY_WAIT
                : DefaultSelectStrategyFactory.INSTANCE;
        IoHandlerFactory io = switch (engine) {
            case EPOLL -> EpollIoHandler.newFactory(Math.max(0, poller.maxEvents()), strategy);
            case IO_URING -> IoUringIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
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
        this.group = new MultiThreadIoEventLoopGroup(threads, factory, counted) {
            @Override
            protected IoEventLoop newChild(Executor executor, IoHandlerFactory ioHandlerFactory, Object... args) {
                // (Netty asks for the queue inside the loop's constructor: the holder is set before that runs)
                List<Queue<Runnable>> made = new ArrayList<>(1);
                IoEventLoop loop = new SingleThreadIoEventLoop(this, executor, ioHandlerFactory) {
                    @Override
                    protected Queue<Runnable> newTaskQueue(int maxPendingTasks) {
                        Queue<Runnable> q = Profiling.taskQueue(super.newTaskQueue(maxPendingTasks));
                        made.add(q);
                        return q;
                    }
                };
                taskQueues.put(loop, made.getFirst());
                return loop;
            }
        };
        // Each loop's thread starts now, in the group's order, so that thread N (cpu-map, a bind line's
        // 'thread', the 'thread' fetch) is the N-th loop of all(): threads otherwise start with their loop's first task.
        for (EventLoop loop : all()) {
            loop.submit(() -> { }).syncUninterruptibly();
        }
    }

    /**
     * The index of the event loop running the calling thread, from 0 ({@code thread} fetch, per-loop stats
     * cells); 0 off the loops. A field of the thread, not a thread-local: the data path asks on every transaction.
     */
    public static int threadIndex() {
        return Thread.currentThread() instanceof LoopThread t ? t.index : 0;
    }

    /** The index of the event loop running the calling thread, from 0; -1 off the loops. */
    public static int loopIndex() {
        return Thread.currentThread() instanceof LoopThread t ? t.index : -1;
    }

    /** The activity counters of the loop running the calling thread, null off the loops. */
    static LoopActivity currentActivity() {
        return Thread.currentThread() instanceof LoopThread t ? t.activity : null;
    }

    /** Ties {@code a} to the calling loop thread; on the loop, when it starts. */
    static void attach(LoopActivity a) {
        if (Thread.currentThread() instanceof LoopThread t) {
            t.activity = a;
        }
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
        private final CpuMap cpus;

        LoopThreads(CpuMap cpus) {
            super("fulcrum", false);
            this.cpus = cpus;
        }

        @Override
        protected Thread newThread(Runnable task, String name) {
            int index = next.getAndIncrement();
            return new LoopThread(threadGroup, task, name, index, cpus.of(index));
        }
    }

    /** An event loop's thread, which knows the loop's index. */
    static final class LoopThread extends FastThreadLocalThread {
        final int index;
        /** The CPUs it runs on ({@code cpu-map}), or null. */
        private final long[] cpus;
        /** Its loop's activity counters, once the loop runs. */
        LoopActivity activity;
        /** {@link LoopClock}'s times of the current loop pass, valid once read in it. */
        long nanos;
        long millis;
        boolean nanosRead;
        boolean millisRead;

        LoopThread(ThreadGroup group, Runnable task, String name, int index, long[] cpus) {
            super(group, task, name);
            this.index = index;
            this.cpus = cpus;
        }

        @Override
        public void run() {
            if (cpus != null) {
                LibC.bindCallingThread(cpus); // on the thread itself: the affinity is a thread's own
            }
            super.run();
        }
    }

    /**
     * The loops of the stats sockets on unix paths: these, or on io_uring one epoll loop of their own. Why: Netty
     * 4.2.18's io_uring channels honour half-closure only for TCP, so a unix socket closes at the client's shutdown,
     * and a CLI client ({@code echo cmd | socat - /path}) shuts its side once it has sent its commands, before their
     * answers. Its thread is not one of the process's ({@code thread} 0 as off the loops); its sockets are in
     * {@code show fd}, not in {@code show activity}.
     */
    public synchronized EventLoops forUnixCli() {
        if (engine != Engine.IO_URING) {
            return this;
        }
        if (unixCli == null) {
            unixCli = new EventLoops(1, false, new DefaultThreadFactory("fulcrum-cli", true), Poller.DEFAULT);
        }
        return unixCli;
    }

    /** The tasks waiting to run on the loop {@code a} belongs to (empty for none known). */
    Queue<Runnable> taskQueue(LoopActivity a) {
        return taskQueues.getOrDefault(a.loop, new ArrayDeque<>());
    }

    /** The loops' activity counters, in the order of their threads' indexes (loops not started yet last). */
    public List<LoopActivity> activities() {
        return activities.stream().sorted(Comparator.comparingInt(a -> a.index < 0 ? Integer.MAX_VALUE : a.index)).toList();
    }

    /** {@link #activities()} and, after them, those of the unix stats sockets' own loop if any ({@code show fd}). */
    public List<LoopActivity> activitiesWithCli() {
        EventLoops cli = unixCli;
        if (cli == null) {
            return activities();
        }
        List<LoopActivity> all = new ArrayList<>(activities());
        all.addAll(cli.activities());
        return all;
    }

    /**
     * Gives each loop's channels to {@code action}, on that loop. Why not a channel group: a shared set would be a
     * map updated by every loop at each connection's start and end; each loop knows its channels already.
     */
    public void eachChannel(java.util.function.Consumer<io.netty.channel.Channel> action) {
        EventLoops cli = unixCli;
        if (cli != null) {
            cli.eachChannel(action);
        }
        for (LoopActivity a : activities) {
            ActivityIoHandler h = a.handler;
            if (h != null) {
                a.loop.execute(() -> h.eachChannel((ch, events) -> action.accept(ch)));
            }
        }
    }

    /** {@code clear counters}: each loop clears its own activity counters. */
    public void clearActivity() {
        activities.forEach(a -> a.loop.execute(a::clear));
    }

    /** The thread index of {@code loop}, 0 when it is not one of these loops or has not started. */
    public int indexOf(Executor loop) {
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

    /** The loops, in the group's order. */
    public List<EventLoop> all() {
        List<EventLoop> all = loopList;
        if (all == null) {
            List<EventLoop> l = new ArrayList<>();
            group.forEach(e -> l.add((EventLoop) e));
            loopList = all = List.copyOf(l);
        }
        return all;
    }

    /** {@code tune.listener.multi-queue}. */
    public boolean multiQueue() {
        return multiQueue;
    }

    /** The next loop, round robin: where a new connection lives for its whole life. */
    public EventLoop next() {
        return group.next();
    }

    /**
     * Whether the loops run on a native engine (epoll or io_uring), whose sockets take Linux's own options
     * ({@link NativeOptions}) and have descriptors.
     */
    public boolean isNative() {
        return engine != Engine.NIO;
    }

    public Engine engine() {
        return engine;
    }

    /** The poller's name as {@code -vv} and {@code show info} print it. */
    public String pollerName() {
        return engine.label;
    }

    /**
     * A new listening TCP socket. io_uring's sockets are IPv6 ones (Netty takes no family for them), which take IPv4
     * addresses as IPv4-mapped ones: connections still show IPv4 addresses.
     */
    public ServerChannel newServerSocket(SocketProtocolFamily family) {
        return switch (engine) {
            case EPOLL -> new EpollServerSocketChannel(family);
            case IO_URING -> new IoUringServerSocketChannel();
            case NIO -> new NioServerSocketChannel(SelectorProvider.provider(), family);
        };
    }

    /** A listening socket inherited from the parent process. */
    public ServerChannel adoptServerSocket(int fd) {
        if (engine != Engine.EPOLL) {
            throw new UnsupportedOperationException("inherited file descriptors need the native epoll transport, which "
                    + (engine == Engine.IO_URING ? "io-uring replaces" : unavailable()));
        }
        return new EpollServerSocketChannel(fd);
    }

    public ServerChannel newUnixServerSocket() {
        requireNative("unix sockets");
        return engine == Engine.IO_URING ? new IoUringServerDomainSocketChannel() : new EpollServerDomainSocketChannel();
    }

    /** A new TCP connection (on io_uring an IPv6 socket, as {@link #newServerSocket}). */
    public Channel newSocket(SocketProtocolFamily family) {
        return switch (engine) {
            case EPOLL -> new EpollSocketChannel(family);
            case IO_URING -> new IoUringSocketChannel();
            case NIO -> new NioSocketChannel(SelectorProvider.provider(), family);
        };
    }

    /** A new, unregistered UDP socket of {@code family} (the resolvers' queries). */
    public Channel newDatagram(SocketProtocolFamily family) {
        return switch (engine) {
            case EPOLL -> new EpollDatagramChannel(family);
            case IO_URING -> new IoUringDatagramChannel(family);
            case NIO -> new NioDatagramChannel(family);
        };
    }

    /** A new, unregistered connection of the right kind for {@code address} (IPv4, IPv6 or unix). */
    public Channel newSocketFor(java.net.SocketAddress address) {
        if (address instanceof java.net.InetSocketAddress inet) {
            return newSocket(inet.getAddress() instanceof java.net.Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET);
        }
        return newUnixSocket();
    }

    public Channel newUnixSocket() {
        requireNative("unix sockets");
        return engine == Engine.IO_URING ? new IoUringDomainSocketChannel() : new EpollDomainSocketChannel();
    }

    private void requireNative(String what) {
        if (engine == Engine.NIO) {
            throw new UnsupportedOperationException(what + " need the native epoll transport, which " + unavailable());
        }
    }

    private static String unavailable() {
        return Epoll.isAvailable() ? "noepoll (or -de) disables" : "is unavailable here: " + Epoll.unavailabilityCause();
    }

    /**
     * Closes every channel of the loops (the unix CLI's too), each on its loop, and waits for the closes, {@code millis}
     * at most. Why before {@link #shutdown()}: io_uring ends a close on the loop once the socket's pending operations
     * are cancelled, and a channel a loop still holds when it ends is closed by the loop's cleanup, too late for that
     * step (Netty logs the rejected task with its stack trace).
     */
    public void closeAll(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Future<List<ChannelFuture>>> passes = new ArrayList<>();
        for (LoopActivity a : activitiesWithCli()) {
            ActivityIoHandler h = a.handler;
            if (h != null && a.loop instanceof EventLoop loop && !loop.isShuttingDown()) {
                passes.add(loop.submit(() -> {
                    List<Channel> open = new ArrayList<>();
                    h.eachChannel((ch, events) -> open.add(ch)); // (collected first: a close unlinks its registration)
                    return open.stream().map(Channel::close).toList();
                }));
            }
        }
        for (Future<List<ChannelFuture>> pass : passes) {
            if (pass.awaitUninterruptibly(remaining(deadline), TimeUnit.NANOSECONDS) && pass.isSuccess()) {
                pass.getNow().forEach(f -> f.awaitUninterruptibly(remaining(deadline), TimeUnit.NANOSECONDS));
            }
        }
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    public void shutdown() {
        EventLoops cli = unixCli;
        if (cli != null) {
            cli.shutdown();
        }
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
