package io.fulcrum.listener;

import io.fulcrum.conn.BindFailure;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.NativeOptions;
import io.fulcrum.conn.SocketTuning;
import io.fulcrum.runtime.AcceptRate;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopActivity;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.ServerChannel;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.UnixChannelOption;
import io.netty.util.AttributeKey;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The listening sockets of one address of a {@code bind} line. Accepts connections while the bind's, the frontend's
 * and the global {@code maxconn} allow; at a limit it stops reading the listening sockets (new connections wait
 * in the kernel's backlog) and resumes when a connection ends.
 *
 * <p>An IP address gets one listening socket, as in HAProxy 2.6: the kernel queues its connections in the order
 * they came, which a frontend at its {@code maxconn} relies on to serve them first come, first served. With
 * {@code shards}, it gets several (SO_REUSEPORT), each on its own loop, which accepts its own connections: no
 * hand-over to another thread, but the kernel spreads connections over the sockets by a hash of their addresses,
 * so their order across sockets is lost. Unix and inherited sockets always have one.
 */
public final class Listener {
    private static final AttributeKey<Listener> LISTENER = AttributeKey.valueOf("fulcrum.listener");
    private final BindSpec bind;
    private final Endpoint endpoint;
    private final String owner;
    /** How HAProxy names the owner's kind in messages: frontend, or proxy for a listen section. */
    private final String ownerType;
    private final EventLoops loops;
    private final ConnLimit[] limits;
    private final Consumer<Channel> onAccept;
    /** Changed by binds and by pauses without SO_REUSEPORT, read by the loops: copied on write. */
    private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean paused;
    /** Without SO_REUSEPORT ({@code noreuseport}): a pause closes the IP sockets, so that a new process can bind. */
    private boolean reusePort = true;
    /** Paused with its IP sockets closed; a resume binds them again. */
    private volatile boolean released;
    /** The process's accept rate limits, or null (stats sockets). */
    private AcceptRate rate;
    /** The loops its sockets are on and its connections live on ({@link #allowedLoops()}), set by {@link #bind()}. */
    private volatile List<EventLoop> allowed;
    /** The last of the loops given a connection of the single socket without multi-queue. */
    private int turn;
    /** How its connections are spread over {@link #allowed} with multi-queue; made by the first {@link #bind()}. */
    private AcceptBalance balance;
    /** Its own counters ({@code option socket-stats}), or null. */
    private Counters counters;
    /** TCP_QUICKACK off on its TCP sockets ({@code option tcp-smart-accept}). */
    private boolean delayedAck;

    /**
     * @param owner      the frontend's name (GLOBAL for the stats sockets), for messages
     * @param ownerLimit the frontend's maxconn, shared by its listeners
     * @param onAccept   starts the session on a new connection, on the connection's own event loop
     */
    public Listener(BindSpec bind, Endpoint endpoint, String owner, String ownerType, ConnLimit ownerLimit, EventLoops loops,
                    ConnLimit global, Consumer<Channel> onAccept) {
        this.bind = bind;
        this.endpoint = endpoint;
        this.owner = owner;
        this.ownerType = ownerType;
        this.loops = loops;
        this.limits = new ConnLimit[] {new ConnLimit(bind.maxconn), ownerLimit, global};
        this.onAccept = onAccept;
    }

    /** The address its (first) socket is bound to, or null before it is: an inherited socket's ({@code fd@}) tells it. */
    public SocketAddress localAddress() {
        return sockets.isEmpty() ? null : sockets.get(0).channel.localAddress();
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /** The name of the frontend it accepts for (GLOBAL for the stats sockets). */
    public String owner() {
        return owner;
    }

    /** HAProxy 2.6's alert for a socket that could not be bound (protocol_bind_all()): its line, its owner, why. */
    public String bindFailure(String error) {
        String who = ownerType + " " + owner;
        String where = BindFailure.prefix(bind.source(), who);
        return switch (endpoint) {
            case Endpoint.Inet inet -> BindFailure.alert(bind.source(), who, inet.socketAddress(), error);
            case Endpoint.Unix u -> where + "cannot bind UNIX socket (" + error + ") [" + (u.abstractNamespace() ? u : u.path()) + "]";
            case Endpoint.Fd fd -> where + "cannot bind socket (" + error + ") for [" + fd + "]";
        };
    }

    /** Its bind line. */
    public BindSpec bindSpec() {
        return bind;
    }

    /** HAProxy's numeric id of the socket ({@code so_id}). */
    public int numericId() {
        return bind.socketId(bind.endpoints().indexOf(endpoint));
    }

    /** The {@code name} of its bind line, or null. */
    public String name() {
        return bind.name;
    }

    /** Makes the socket obey the process's accept rate limits; before {@link #bind()}. */
    public void limitRate(AcceptRate rate) {
        this.rate = rate;
    }

    /** Whether {@code ch} is one of its listening sockets ({@code show fd}). */
    public boolean owns(Channel ch) {
        for (Socket s : sockets) {
            if (s.channel == ch) {
                return true;
            }
        }
        return false;
    }

    /** The connections accepted on this address and not closed yet. */
    public int connections() {
        return limits[0].current();
    }

    /** Its connections: now, at most, in all, and its {@code maxconn} (0: none). */
    public ConnLimit limit() {
        return limits[0];
    }

    /** Opens its sockets without SO_REUSEPORT ({@code noreuseport}); before {@link #bind()}. */
    public void withoutReusePort() {
        reusePort = false;
    }

    /** Delays the acknowledgements of the connections it accepts ({@code option tcp-smart-accept}); before {@link #bind()}. */
    public void delayedAck() {
        delayedAck = true;
    }

    /** Keeps counters of its own ({@code option socket-stats}); before {@link #bind()}. */
    public void keepCounters() {
        counters = new Counters();
    }

    /** Its own counters, or null without {@code option socket-stats}. */
    public Counters counters() {
        return counters;
    }

    /**
     * Adds one to {@code count} of the listener that accepted {@code child}, when it keeps counters: what HAProxy's
     * listeners count beside their frontend.
     */
    public static void count(Channel child, Counters.Count count) {
        Listener l = of(child);
        if (l != null && l.counters != null) {
            l.counters.increment(count);
        }
    }

    /** HAProxy's status of a listener: FULL at its own maxconn, WAITING for a slot of its frontend or the process. */
    public String status() {
        if (limits[0].current() >= limits[0].max()) {
            return "FULL";
        }
        return limits[1].current() >= limits[1].max() || limits[2].current() >= limits[2].max() ? "WAITING" : "OPEN";
    }

    /**
     * Opens the sockets (several for an IP address with {@code shards}) and starts binding them; each future fails
     * with the system's reason. The binds run on the loops at once, not one after the other, so that all the
     * process's sockets listen within a moment of each other (only sockets bound to port 0 wait for the first
     * one's port). A single socket goes to the next loop in turn, so that several listeners share the accepting.
     */
    public List<ChannelFuture> bind() throws IOException {
        List<EventLoop> all = allowedLoops();
        if (balance == null && all.size() > 1) {
            balance = new AcceptBalance(all.size());
        }
        allowed = all; // (published after the balance: the loops read this first)
        int count = endpoint instanceof Endpoint.Inet && loops.isNative() && reusePort
                ? (bind.shards == BindSpec.BY_THREAD ? all.size() : Math.min(bind.shards, all.size())) : 1;
        SocketAddress address = address();
        List<ChannelFuture> bound = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket(open());
            sockets.add(socket);
            ChannelFuture f = socket.bind(count == 1 && bind.threads == 0 ? loops.next() : all.get(i), address);
            bound.add(f);
            if (i == 0 && count > 1 && address instanceof InetSocketAddress inet && inet.getPort() == 0) {
                // The next sockets take the port the system gave the first one.
                if (!f.awaitUninterruptibly().isSuccess()) {
                    return bound;
                }
                address = f.channel().localAddress();
            }
        }
        return bound;
    }

    /** A new listening socket for the endpoint, with the bind line's options, not registered yet. */
    private ServerChannel open() throws IOException {
        ServerChannel channel;
        switch (endpoint) {
            case Endpoint.Inet inet -> {
                boolean v6 = inet.host() instanceof Inet6Address;
                SocketProtocolFamily family = v6 ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
                channel = bind.namespace == null ? loops.newServerSocket(family) : bind.namespace.inside(() -> loops.newServerSocket(family));
                if (v6 && (bind.v6only || bind.v4v6)) {
                    SocketTuning.v6only(channel, bind.v6only);
                }
                if (loops.isNative()) {
                    channel.config().setOption(UnixChannelOption.SO_REUSEPORT, reusePort);
                    NativeOptions tcp = NativeOptions.of(channel);
                    if (bind.deferAccept) {
                        channel.config().setOption(tcp.deferAccept(), 1);
                    }
                    if (bind.tfo) {
                        channel.config().setOption(tcp.fastOpen(), backlog());
                    }
                }
                if (bind.iface != null) {
                    SocketTuning.bindToDevice(channel, bind.iface);
                }
                tcpOptions(channel, v6);
            }
            case Endpoint.Unix unix -> {
                channel = loops.newUnixServerSocket();
                if (!unix.abstractNamespace()) {
                    Files.deleteIfExists(temporary(unix)); // left by a process of the same pid
                }
            }
            case Endpoint.Fd fd -> channel = loops.adoptServerSocket(fd.fd());
        }
        channel.config().setOption(ChannelOption.SO_BACKLOG, backlog());
        channel.config().setRecvByteBufAllocator(new ServerChannelRecvByteBufAllocator().maxMessagesPerRead(acceptBatch(bind.maxaccept)));
        channel.config().setOption(ChannelOption.SO_REUSEADDR, true);
        return channel;
    }

    /** The TCP options of the bind line, set on the listening socket: accepted connections inherit them. */
    private void tcpOptions(ServerChannel channel, boolean v6) throws IOException {
        if (bind.mss != 0) {
            SocketTuning.maxSegment(channel, bind.mss);
        }
        if (bind.tcpUserTimeout > 0) {
            SocketTuning.userTimeout(channel, bind.tcpUserTimeout);
        }
        if (bind.transparent) {
            SocketTuning.transparent(channel, v6);
        }
    }

    /** How many connections a socket accepts per wake-up for a {@code maxaccept} of HAProxy's: 0 is one, negative all. */
    static int acceptBatch(int maxaccept) {
        return maxaccept < 0 ? Integer.MAX_VALUE : Math.max(1, maxaccept);
    }

    /** The address to bind to; null for an inherited socket, bound already. */
    private SocketAddress address() {
        return switch (endpoint) {
            case Endpoint.Inet inet -> inet.socketAddress();
            case Endpoint.Unix unix -> unix.abstractNamespace() ? unix.socketAddress() : new DomainSocketAddress(temporary(unix).toString());
            case Endpoint.Fd fd -> null;
        };
    }

    /**
     * The name a unix socket is bound to before it is renamed to its path, as HAProxy does: the rename replaces the
     * socket of a process being reloaded at once, and that process, closing its socket, can only remove this name
     * (Netty's unix server channels delete the file they bound), not the path its successor now listens on.
     */
    private static Path temporary(Endpoint.Unix unix) {
        return Path.of(unix.path() + "." + ProcessHandle.current().pid() + ".tmp");
    }

    /** Gives a bound unix socket its mode and owner, then its path. */
    private void publish(Endpoint.Unix unix) throws IOException {
        Path bound = temporary(unix);
        try {
            unixPermissions(bound);
            Files.move(bound, Path.of(unix.path()), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(bound);
            throw new IOException("cannot switch final and temporary UNIX sockets (" + e.getMessage() + ")", e);
        }
    }

    private int backlog() {
        if (bind.backlog > 0) {
            return bind.backlog;
        }
        int fe = limits[1].max();
        return fe == Integer.MAX_VALUE ? 1024 : Math.max(fe, 1);
    }

    private void unixPermissions(Path path) throws IOException {
        if (bind.unixMode >= 0) {
            Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
            PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE = bits 8..0
            for (int i = 0; i < 9; i++) {
                if ((bind.unixMode & (1 << (8 - i))) != 0) {
                    perms.add(bits[i]);
                }
            }
            Files.setPosixFilePermissions(path, perms);
        }
        if (bind.uid >= 0) {
            Files.setAttribute(path, "unix:uid", bind.uid);
        }
        if (bind.gid >= 0) {
            Files.setAttribute(path, "unix:gid", bind.gid);
        }
    }

    /**
     * Stops accepting (SIGTTOU); connections wait in the backlog. An IP socket without SO_REUSEPORT is closed instead,
     * as HAProxy's pause stops it listening: a new process ({@code -sf}) may then bind the address. Off the loops.
     */
    public void pause() {
        paused = true;
        if (!reusePort && endpoint instanceof Endpoint.Inet) {
            released = true;
            close();
            return;
        }
        for (Socket s : sockets) {
            s.channel.eventLoop().execute(() -> s.channel.config().setAutoRead(false));
        }
    }

    /**
     * Accepts again (SIGTTIN, {@code enable frontend}); a socket the pause closed is bound again, one that
     * {@link #disable()} stopped listens again, and waited for: off the loops. Null when it accepts, else the exception
     * that kept a socket from being bound or listening.
     */
    public Throwable resume() {
        paused = false;
        if (released) {
            released = false;
            try {
                for (ChannelFuture f : bind()) {
                    if (!f.awaitUninterruptibly().isSuccess()) {
                        return f.cause();
                    }
                }
            } catch (IOException e) {
                return e;
            }
            return null;
        }
        return onEachLoop(s -> () -> {
            s.listenAgain();
            s.drainWaiting();
        });
    }

    /**
     * {@code disable frontend}: stops accepting, and an IP socket also stops listening, so that connects are refused,
     * as HAProxy's pause does (the socket stays bound, for {@link #resume()}). A Unix socket keeps listening: its
     * connections wait in the backlog, as in HAProxy. Done when the sockets are: off the loops. Null when they all
     * stopped, else what kept one listening.
     */
    public Throwable disable() {
        paused = true;
        return onEachLoop(s -> s::stopListening);
    }

    /** A socket's step that may fail. */
    private interface Step {
        void run() throws IOException;
    }

    /** Runs each socket's step on its loop and waits for them: the first failure, or null. Off the loops. */
    private Throwable onEachLoop(java.util.function.Function<Socket, Step> step) {
        Throwable failure = null;
        for (Socket s : sockets) {
            Step st = step.apply(s);
            var f = s.channel.eventLoop().submit(() -> {
                st.run();
                return null;
            }).awaitUninterruptibly();
            if (!f.isSuccess() && failure == null) {
                failure = f.cause();
            }
        }
        return failure;
    }

    /**
     * Closes the listening sockets and waits for them (after a failed bind, {@link #bind()} may be tried again); live
     * connections are not affected. Off the loops. A unix socket's file stays, as HAProxy leaves it: after a reload it
     * is the new process's.
     */
    public void close() {
        for (Socket s : sockets) {
            s.channel.close().awaitUninterruptibly();
        }
        sockets.clear();
    }

    /** Takes a slot in every limit, or none. */
    private ConnLimit acquire() {
        for (int i = 0; i < limits.length; i++) {
            if (!limits[i].tryAcquire()) {
                for (int j = 0; j < i; j++) {
                    limits[j].release();
                }
                return limits[i];
            }
        }
        return null;
    }

    /** Milliseconds before the next connection may be accepted (a rate limit is reached), else 0. */
    private long rateDelay() {
        return rate == null ? 0 : rate.delay(bind.transport != null);
    }

    /** The listener that accepted {@code child}, or null. */
    public static Listener of(Channel child) {
        return child.attr(LISTENER).get();
    }

    private void start(Channel child) {
        if (rate != null) {
            rate.accepted(bind.transport != null);
        }
        child.attr(LISTENER).set(this);
        child.closeFuture().addListener(f -> {
            for (ConnLimit l : limits) {
                l.release();
            }
        });
        onAccept.accept(child);
    }

    /**
     * The loop a connection accepted by this listener lives on, one of its {@code thread} set's (all loops without
     * one). With {@code tune.listener.multi-queue}, the one {@link AcceptBalance} chooses; without, the socket's own
     * when each loop has one, else the loops in turn.
     */
    public EventLoop loopFor(Channel child) {
        List<EventLoop> on = allowed;
        if (on.size() == 1) {
            return on.get(0);
        }
        EventLoop local = child.parent().eventLoop();
        if (loops.multiQueue()) {
            return on.get(sockets.size() > 1 ? balance.chooseFor(child, on.indexOf(local)) : balance.chooseFor(child));
        }
        if (sockets.size() > 1) {
            return local;
        }
        turn = (turn + 1) % on.size(); // (on the single socket's loop only)
        return on.get(turn);
    }

    /**
     * Whether it chooses a loop for each connection among several, as HAProxy's listeners push theirs to a thread's
     * accept queue (multi-queue on, bound to two threads or more; not with one socket per loop, which accepts locally).
     */
    public boolean spreads() {
        List<EventLoop> on = allowed;
        return sockets.size() == 1 && on != null && on.size() > 1 && loops.multiQueue();
    }

    /**
     * The loops of the bind line's {@code thread} set (thread N is the N-th loop), or all of them (also for a stats
     * socket on a loop of its own, {@link EventLoops#forUnixCli()}, which no thread set names).
     */
    private List<EventLoop> allowedLoops() {
        List<EventLoop> all = loops.all();
        if (bind.threads == 0 || all.size() == 1) {
            return all;
        }
        List<EventLoop> set = new ArrayList<>();
        for (int i = 0; i < all.size() && i < 64; i++) {
            if ((bind.threads & (1L << i)) != 0) {
                set.add(all.get(i));
            }
        }
        return List.copyOf(set);
    }

    /** One listening socket, with the connections it accepted that wait for a slot. */
    private final class Socket {
        final ServerChannel channel;
        /** Connections accepted but waiting for a free slot. Touched only on the socket's loop. */
        final ArrayDeque<Channel> waiting = new ArrayDeque<>();
        /** Bound but not listening ({@link #disable()}). Touched only on the socket's loop. */
        boolean unlistened;

        Socket(ServerChannel channel) {
            this.channel = channel;
            channel.pipeline().addLast(new Acceptor(this));
        }

        /** Registers the socket on {@code loop} and binds it to {@code address} (null: inherited, bound already). */
        ChannelFuture bind(EventLoop loop, SocketAddress address) {
            ChannelFuture registered = loop.register(channel);
            if (address == null) {
                return registered;
            }
            // Completes once the socket is tuned: a client that connects once bind() is done finds it so.
            ChannelPromise ready = channel.newPromise();
            channel.bind(address).addListener(f -> {
                if (f.isSuccess() && endpoint instanceof Endpoint.Unix unix && !unix.abstractNamespace()) {
                    try {
                        publish(unix);
                    } catch (IOException e) {
                        channel.close();
                        ready.setFailure(e);
                        return;
                    }
                }
                // After listen(), which resets the state, and before the first accept (the loop reads after this).
                if (f.isSuccess() && delayedAck && endpoint instanceof Endpoint.Inet && loops.isNative()) {
                    SocketTuning.delayedAck(channel);
                }
                if (f.isSuccess()) {
                    ready.setSuccess();
                } else {
                    ready.setFailure(f.cause());
                }
            });
            return ready;
        }

        /** Stops accepting; a TCP socket stops listening ({@link #disable()}). On the socket's loop. */
        void stopListening() throws IOException {
            channel.config().setAutoRead(false);
            if (!unlistened && channel.localAddress() instanceof InetSocketAddress && loops.isNative()) {
                SocketTuning.stopListening(channel);
                unlistened = true;
            }
        }

        /** Listens again after {@link #stopListening()}, if it stopped. On the socket's loop. */
        void listenAgain() throws IOException {
            if (unlistened) {
                SocketTuning.listenAgain(channel, backlog());
                unlistened = false;
            }
        }

        /** Stops reading the socket until a rate limit lets connections in again. */
        void holdForRate(long delay) {
            channel.config().setAutoRead(false);
            channel.eventLoop().schedule(this::drainWaiting, delay, TimeUnit.MILLISECONDS);
        }

        /** Serves connections that waited for a slot, then reads the socket again if they all got one. */
        void drainWaiting() {
            while (!waiting.isEmpty()) {
                long delay = rateDelay();
                if (delay > 0) {
                    holdForRate(delay);
                    return;
                }
                ConnLimit full = acquire();
                if (full != null) {
                    full.await(() -> channel.eventLoop().execute(this::drainWaiting));
                    return;
                }
                start(waiting.poll());
            }
            if (!paused && channel.isOpen()) {
                channel.config().setAutoRead(true);
                channel.read();
            }
        }
    }

    /** Receives the accepted connections (the listening channel's "messages"). */
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        private final Socket socket;

        Acceptor(Socket socket) {
            this.socket = socket;
        }

        @Override
        public boolean isSharable() {
            return false;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            LoopActivity.accepted();
            ArrayDeque<Channel> waiting = socket.waiting;
            if (!waiting.isEmpty()) {
                waiting.add(child);
                return;
            }
            long delay = rateDelay();
            if (delay > 0) {
                waiting.add(child);
                socket.holdForRate(delay);
                return;
            }
            ConnLimit full = acquire();
            if (full == null) {
                start(child);
                return;
            }
            waiting.add(child);
            ctx.channel().config().setAutoRead(false);
            full.await(() -> ctx.channel().eventLoop().execute(socket::drainWaiting));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Accept errors (EMFILE, ENFILE...) are transient: keep the socket, but stop reading it for a
            // moment rather than spin on an error the next accept will hit again.
            Channel ch = ctx.channel();
            ch.config().setAutoRead(false);
            ch.eventLoop().schedule(() -> {
                if (!paused && socket.waiting.isEmpty()) {
                    ch.config().setAutoRead(true);
                }
            }, 100, TimeUnit.MILLISECONDS);
        }
    }

    /** For tests and messages: "frontend address". */
    @Override
    public String toString() {
        return owner + " " + endpoint;
    }
}
