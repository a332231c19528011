package io.fulcrum.mux.tcp;

import io.fulcrum.backend.Backend;
import io.fulcrum.backend.QueuePriority;
import io.fulcrum.backend.Ticket;
import io.fulcrum.conn.CloseAfterFlush;
import io.fulcrum.conn.ConnError;
import io.fulcrum.conn.IoUringHalfClose;
import io.fulcrum.conn.LingeringClose;
import io.fulcrum.conn.SilentDrop;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.conn.Socks4;
import io.fulcrum.conn.SourceAddress;
import io.fulcrum.http.HeadReader;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.LogContext;
import io.fulcrum.log.RunningCounts;
import io.fulcrum.log.StreamLog;
import io.fulcrum.persist.Persistence;
import io.fulcrum.pool.ServerIdle;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.Timeouts;
import io.fulcrum.rules.ModeSwitch;
import io.fulcrum.rules.ResponseControl;
import io.fulcrum.rules.TcpRules;
import io.fulcrum.rules.Verdict;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.Resumption;
import io.fulcrum.sample.VarScope;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSockets;
import io.fulcrum.stream.LiveStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.SocketAddress;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One TCP session ({@code mode tcp}): a client connection, the server connection chosen for it, and the
 * bytes between them. Both connections live on the client's event loop, so nothing here is shared
 * between threads. Connects with {@code timeout connect} and {@code retries}, forwards half-closes both
 * ways, and enforces the inactivity timeouts: {@code timeout client} on the client side and
 * {@code timeout server} on the server side, both replaced by {@code timeout tunnel} once connected, and
 * by {@code client-fin}/{@code server-fin} once one direction is shut.
 */
public final class TcpSession extends LiveStream implements ResponseControl, ModeSwitch {
    private final Channel client;
    private final Frontend frontend;
    private Backend backend;
    private final EventLoops loops;
    /** This session's own copy of the addresses once a content rule rewrites them, else null (the session's). */
    private Endpoints endpoints;
    private final Relay clientRelay;
    private ByteBuf early;

    private Channel server;
    private Server target;
    /** The session's claim on a server slot; made on the loop when the session first asks for a server. */
    /** Its place in the queues (set-priority-class, set-priority-offset), as {@link QueuePriority} packs it. */
    private long priority;
    private Ticket ticket;
    /** The server a redispatch left, which the algorithm avoids. */
    private Server avoid;
    private ScheduledFuture<?> queueTimer;
    private int attempts;
    private boolean connected;
    private boolean finished;

    private final boolean[] inputShut = new boolean[2];
    private final long[] lastActive = new long[2];
    /** Bytes handed to each side's channel, to tell from its pending count whether it drained. */
    private final long[] written = new long[2];
    /** Bytes read from each side, forwarded or not (%U, %B: HAProxy counts what its channels received). */
    private final long[] received = new long[2];
    private final long[] flushedSeen = new long[2];
    /** When bytes were last handed to each side's channel: a socket with room sends them at once. */
    private final long[] lastWrite = new long[2];
    private ScheduledFuture<?> timer;
    private final StreamLog log;
    /** What the log line is about: this session, or the HTTP transaction that became this tunnel. */
    private final LogContext logged;
    /** The most bytes content rules inspect (the buffer, {@code tune.bufsize - tune.maxrewrite}). */
    private final int room;
    private final HeadReader heads;
    /** The head read from the first {@link #heldBytes} held bytes (the HTTP fetches); -1: none read yet. */
    private HeadReader.Held held;
    private int heldBytes = -1;
    /** Which content rules run: 0 the frontend's, 1 the backend's, 2 none left. */
    private int ruleStage;
    /** What a waiting rule waits for ({@link #resumeWhen}); made by the first rule that waits. */
    private Resumption resumption;
    /** The content rules waiting for the client's bytes ({@code tcp-request inspect-delay}), or null. */
    private TcpRules inspecting;
    /** System.nanoTime() when the inspect delay ends. */
    private long inspectDeadline;
    /** A fetch lacked bytes that may still come, in this pass over the rules. */
    private boolean missing;
    /** The backend's tcp-response content rules have not decided yet: the server's bytes are held. */
    private boolean inspectingResponse;
    /** The server's bytes held while the tcp-response content rules inspect them, or null. */
    private ByteBuf response;
    /** System.nanoTime() when the tcp-response inspect delay ends. */
    private long responseDeadline;
    /** The tcp-response content rules are being evaluated: fetches of both directions read the response. */
    private boolean responseSide;
    /** A tcp-response content close rule matched: the server connection closes once its held bytes are passed on. */
    private boolean closeServer;
    /** {@code timeout tunnel} as the HTTP transaction's rules set it ({@code set-timeout tunnel}), or -1. */
    private long tunnelTimeout = -1;
    /** What the session becomes when it goes HTTP; null for the tunnel of an HTTP transaction. */
    private final HttpUpgrade upgrade;
    /** A switch-mode http rule matched: the session becomes HTTP once the frontend's content rules stop. */
    private boolean switchToHttp;
    /** The session ended before its client connection (refused), or the connection is the HTTP side's now. */
    private boolean detached;

    /**
     * The session of a connection whose addresses (the PROXY header's with {@code accept-proxy}) are on its channel.
     *
     * @param early bytes already read from the client (after a PROXY header), or null
     * @param room  the most bytes content rules inspect
     * @param heads reads the HTTP request head the inspected bytes may start with (the HTTP fetches)
     * @param upgrade what the session becomes if it goes HTTP
     */
    public TcpSession(Channel client, Frontend frontend, EventLoops loops, ByteBuf early, int room, HeadReader heads, HttpUpgrade upgrade) {
        this(client, frontend, null, loops, null, early, null, room, heads, upgrade);
    }

    /**
     * @param backend   the backend, or null to choose it by the frontend's rules when the session starts
     * @param endpoints the addresses of the HTTP transaction this session continues, or null: the connection's
     * @param origin    the HTTP transaction this session continues as a tunnel (its log line is the tunnel's), or null
     */
    private TcpSession(Channel client, Frontend frontend, Backend backend, EventLoops loops, Endpoints endpoints, ByteBuf early,
                       LogContext origin, int room, HeadReader heads, HttpUpgrade upgrade) {
        this.room = room;
        this.upgrade = upgrade;
        this.heads = heads;
        this.client = client;
        this.frontend = frontend;
        this.loops = loops;
        this.endpoints = endpoints;
        this.backend = backend;
        this.early = early;
        if (early != null) {
            received[Side.CLIENT.ordinal()] = early.readableBytes();
        }
        this.clientRelay = new Relay(this, Side.CLIENT);
        this.logged = origin != null ? origin : this;
        this.log = origin != null ? origin.streamLog() : frontend.logger().firstStream(client);
        if (origin == null) {
            log.begin();
        }
        client.closeFuture().addListener(f -> clientGone());
    }

    /**
     * Turns an HTTP exchange into a tunnel (an upgrade, or CONNECT): both connections are established,
     * and each side may have sent bytes past the exchange already.
     *
     * @param fromClient    bytes to send to the server first, or null
     * @param fromServer    bytes to send to the client first, or null
     * @param origin        the HTTP transaction, logged when the tunnel ends
     * @param tunnelTimeout {@code timeout tunnel} as the transaction's rules set it, or -1 for the backend's
     */
    public static void tunnel(Channel client, Channel server, Frontend frontend, Backend backend, EventLoops loops,
                              ByteBuf fromClient, ByteBuf fromServer, LogContext origin, long tunnelTimeout) {
        TcpSession s = new TcpSession(client, frontend, backend, loops, origin.endpoints(), fromClient, origin, 0, null, null);
        s.tunnelTimeout = tunnelTimeout;
        s.register();
        s.install();
        s.adopt(server, fromServer);
    }

    private void adopt(Channel ch, ByteBuf fromServer) {
        server = ch;
        connected = true;
        Relay serverRelay = new Relay(this, Side.SERVER);
        serverRelay.peer(client);
        ch.pipeline().addLast("relay", serverRelay);
        if (fromServer != null) {
            received[Side.SERVER.ordinal()] += fromServer.readableBytes();
            written[Side.CLIENT.ordinal()] += fromServer.readableBytes();
            client.writeAndFlush(fromServer, client.voidPromise());
        }
        startForwarding(ch);
    }

    /**
     * Puts the session's handler on the client's pipeline. Done before the client is registered with its
     * event loop (see listener.Acceptor), so that nothing the loop reads before {@link #start()} runs (a FIN and
     * the bytes before it, which the epoll transport reads even with auto-read off) misses the session.
     */
    public void install() {
        if (client.pipeline().get(Relay.class) == null) {
            client.pipeline().addLast("relay", clientRelay);
        }
    }

    /** Starts the session on the client's event loop: the client is registered, not yet read. */
    public void start() {
        client.config().setAutoRead(false);
        install();
        if (finished) {
            return; // the client went away before the session started
        }
        register();
        long now = System.nanoTime();
        lastActive[0] = now;
        lastActive[1] = now;
        proceed();
    }

    /**
     * Runs the frontend's content rules, chooses the backend, runs its content rules, then connects. Rules with an
     * inspect delay may wait for the client's bytes: this runs again as they arrive, and when the delay ends.
     */
    private void proceed() {
        if (ruleStage == 0) {
            Verdict v = content(frontend.tcpRules());
            if (v != Verdict.CONTINUE) {
                return;
            }
            if (switchToHttp) {
                becomeHttp(null);
                return;
            }
            backend = frontend.backend(this);
            if (backend != null && backend.mode() == Mode.HTTP) {
                becomeHttp(backend); // (its content rules run with its HTTP rules, as HAProxy's analysers do)
                return;
            }
            ruleStage = backend != null && backend.tcpRules() != frontend.tcpRules() ? 1 : 2;
        }
        if (ruleStage == 1 && content(backend.tcpRules()) != Verdict.CONTINUE) {
            return;
        }
        ruleStage = 2;
        if (inspecting != null) {
            inspecting = null;
            rearm();
        } else {
            armTimer();
        }
        // As HAProxy, the client's bytes are read while the server connection is made, up to a buffer's worth (held,
        // sent once it is up): they count in %U even when no server takes them.
        client.config().setAutoRead(!inputShut[Side.CLIENT.ordinal()] && (early == null || early.readableBytes() < room));
        connect();
    }

    /** Runs content rules, waiting for data with an inspect delay; a rejected client is closed (DONE). */
    private Verdict content(TcpRules rules) {
        Verdict v;
        if (!rules.inspects()) {
            v = rules.acceptContent(this) ? Verdict.CONTINUE : Verdict.DONE;
        } else {
            if (inspecting != rules) {
                inspecting = rules;
                inspectDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(rules.inspectDelay());
                client.config().setAutoRead(true);
                if (received[Side.CLIENT.ordinal()] == 0 && !inputShut[Side.CLIENT.ordinal()]) {
                    // HAProxy's stream reads what already came before its first analysis: the bytes a client sent
                    // with its connection (a ClientHello...) are there for the first evaluation. Here they are
                    // read in the loop's next turn of I/O, which comes before this task.
                    client.eventLoop().schedule(this::firstLook, 0, TimeUnit.NANOSECONDS);
                    rearm();
                    return Verdict.WAIT;
                }
            }
            v = rules.inspectContent(this, this::takeMissing);
            if (v == Verdict.WAIT) {
                rearm();
            }
        }
        if (v == Verdict.DONE) {
            log.error('P', 'R'); // refused by a rule (PR), as HAProxy logs it
            if (!finished) { // (a silent-drop closed it already)
                refuse();
            }
        }
        return v;
    }

    /** The first evaluation of content rules that waited a turn for the client's first bytes, unless they came. */
    private void firstLook() {
        if (!finished && inspecting != null && received[Side.CLIENT.ordinal()] == 0 && !inputShut[Side.CLIENT.ordinal()]) {
            proceed();
        }
    }

    @Override
    public void switchToHttp() {
        switchToHttp = true;
    }

    /**
     * The session becomes an HTTP/1 connection, in place as in HAProxy: the HTTP side takes the client's channel, its
     * bytes read so far (parsed as a request, not copied) and this session's record for its first request.
     */
    private void becomeHttp(Backend chosen) {
        finished = true;
        detached = true;
        ruleStage = 2;
        cancelTimer();
        unregister();
        ByteBuf read = early;
        early = null;
        ChannelPipeline pipeline = client.pipeline();
        ChannelHandlerContext relay = pipeline.context(clientRelay);
        pipeline.addAfter(relay.name(), "h1", upgrade.handler(chosen, log.asHttp()));
        // The relay's context passes them on to the handler after it: the HTTP side, behind any TLS layer.
        if (read != null) {
            relay.fireChannelRead(read);
        }
        if (inputShut[Side.CLIENT.ordinal()]) {
            relay.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        }
        pipeline.remove(clientRelay);
    }

    /** A content rule refused the client: the session ends and is logged now, its connection closes with a FIN. */
    private void refuse() {
        finished = true;
        detached = true;
        cancelTimer();
        releaseEarly();
        ended();
        LingeringClose.close(client);
    }

    private boolean takeMissing() {
        boolean m = missing;
        missing = false;
        return m;
    }

    @Override
    public void contentMissing() {
        missing = true;
    }

    @Override
    public boolean mayWait() {
        return !responseSide && awaitingContent();
    }

    @Override
    public void resumeWhen(CompletionStage<?> done) {
        if (resumption == null) {
            resumption = new Resumption();
        }
        resumption.when(done, client.eventLoop(), () -> !finished && ruleStage < 2, this::proceed);
    }

    @Override
    public CompletionStage<?> resumed() {
        return resumption == null ? null : resumption.resumed();
    }

    @Override
    public boolean awaitingContent() {
        if (responseSide) {
            return !inputShut[Side.SERVER.ordinal()] && (response == null || response.readableBytes() < room)
                    && System.nanoTime() - responseDeadline < 0;
        }
        return inspecting != null && !inputShut[Side.CLIENT.ordinal()] && (early == null || early.readableBytes() < room)
                && System.nanoTime() - inspectDeadline < 0;
    }

    @Override
    public ByteBuf requestContent() {
        if (connected) {
            return null;
        }
        if (early == null) {
            return Unpooled.EMPTY_BUFFER;
        }
        // The rules see what HAProxy's buffer would hold: the first 'room' bytes.
        return early.readableBytes() > room ? early.slice(early.readerIndex(), room) : early;
    }

    @Override
    public ByteBuf responseContent() {
        return !inspectingResponse ? null : response != null ? response : Unpooled.EMPTY_BUFFER;
    }

    @Override
    public boolean responseSide() {
        return responseSide;
    }

    // --- tcp-response content rules --------------------------------------------------------------

    /**
     * The server connection is up: the backend's tcp-response content rules, if any, run now, before the server's
     * first byte (so that without an inspect delay they decide on nothing, as in HAProxy), then again as its bytes
     * arrive, which are held meanwhile, until they decide or the delay ends.
     */
    private void startResponseRules() {
        TcpRules rules = backend.tcpRules();
        if (!rules.hasResponseRules()) {
            return;
        }
        inspectingResponse = true;
        responseDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(rules.responseInspectDelay());
        inspectResponse();
    }

    /** Runs the tcp-response content rules over the server's bytes held so far. */
    private void inspectResponse() {
        Verdict v;
        responseSide = true;
        try {
            v = backend.tcpRules().inspectResponse(this, this::takeMissing);
        } finally {
            responseSide = false;
        }
        if (finished) {
            return; // silent-drop
        }
        switch (v) {
            case WAIT -> rearm();
            case DONE -> {
                log.error('P', 'D');
                abort();
            }
            default -> releaseResponse();
        }
    }

    /** The rules accepted the response: what the server sent so far goes to the client, the rest as it comes. */
    private void releaseResponse() {
        inspectingResponse = false;
        ByteBuf held = response;
        response = null;
        if (held != null) {
            lastWrite[Side.CLIENT.ordinal()] = LoopClock.nanoTime();
            client.writeAndFlush(held, client.voidPromise());
        }
        if (closeServer) {
            server.close();
        }
        rearm();
    }

    /** True while {@code side}'s bytes are held for content rules. */
    boolean holding(Side side) {
        return side == Side.SERVER && inspectingResponse;
    }

    @Override
    public void closeServer() {
        closeServer = true;
    }

    @Override
    public void silentDrop() {
        log.error('P', 'R');
        finished = true;
        cancelTimer();
        if (server != null) {
            server.close();
        }
        SilentDrop.close(client);
        releaseEarly();
    }

    private Server direct(Persistence p) {
        Server s = p.useServer(this, p.forced(this));
        return s != null ? s : p.rdpServer(requestContent());
    }

    private void connect() {
        if (finished) {
            return;
        }
        if (backend == null) {
            log.error('S', 'C');
            abort();
            return;
        }
        if (ticket == null && inputShut[Side.CLIENT.ordinal()] && nothingToPass()) {
            abort(); // the client left with nothing to pass on before a server was asked for: HAProxy closes, '--'
            return;
        }
        if (ticket == null) {
            ticket = new Ticket(client.eventLoop(), this::slotGranted);
            ticket.priority(priority);
            log.enterBackend(backend, ticket);
        }
        if (ticket.server() == null) {
            // use-server, then persist rdp-cookie: the server they name, unless a retry leaves it
            Server direct = avoid == null && backend.persistence() != null ? direct(backend.persistence()) : null;
            switch (direct != null ? backend.assignTo(ticket, direct) : backend.assign(this, ticket, avoid)) {
                case ASSIGNED -> { }
                case QUEUED -> {
                    if (clientGaveUp()) {
                        giveUp();
                        return;
                    }
                    long t = backend.queueTimeout();
                    if (t > 0) {
                        queueTimer = client.eventLoop().schedule(this::queueExpired, t, TimeUnit.MILLISECONDS);
                    }
                    return;
                }
                case NO_SERVER -> {
                    log.error('S', 'C');
                    abort();
                    return;
                }
                case QUEUE_FULL -> {
                    log.error('S', 'Q');
                    abort();
                    return;
                }
            }
        }
        target = ticket.server();
        if (avoid != null && target != avoid) {
            log.redispatch(backend, avoid);
            avoid = null; // counted once: a retry on the new server is no redispatch
        }
        log.serverAssigned();
        if (clientGaveUp()) {
            giveUp();
            return;
        }
        log.connecting();
        SocketAddress address = target.target(destination());
        Channel ch = ServerSockets.open(loops, address, target.spec());
        SocketOptions opts = backend.socketOptions();
        ch.config().setAutoRead(false);
        ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        IoUringHalfClose.watch(ch);
        opts.applyTo(ch, false);
        ServerSockets.apply(ch, target.spec());
        long connectTimeout = backend.timeouts().connect;
        ch.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout));
        Relay serverRelay = new Relay(this, Side.SERVER);
        serverRelay.peer(client);
        ch.pipeline().addLast("relay", serverRelay);
        server = ch;
        attempts++;
        target.connecting();
        // Counted in use at its creation, then no longer, as HAProxy's conn_set_private() releases at once a connection
        // no other stream may reuse: show servers conn's used_max and need_est see it, used_cur does not.
        ServerIdle conns = ServerIdle.of(target);
        conns.used();
        conns.unused();
        client.eventLoop().register(ch).addListener(reg -> {
            if (!reg.isSuccess()) {
                abort();
                return;
            }
            Socks4.connect(ch, address, SourceAddress.of(target, opts.source), Socks4.of(target))
                    .addListener((ChannelFutureListener) f -> connected(f.channel(), address, f.isSuccess(), f.cause()));
        });
    }

    /** A queue gave the session a slot of {@code srv} (null: its server went down, choose again). */
    private void slotGranted(Server srv) {
        if (queueTimer != null) {
            queueTimer.cancel(false);
            queueTimer = null;
        }
        if (finished) {
            ticket.release();
            return;
        }
        connect();
    }

    /**
     * As HAProxy's back_may_abort_req(): a client that shut its side while its session waits for a server (in a
     * queue or connecting) is given up when nothing it sent is left to pass on, or with {@code option abortonclose}.
     */
    private boolean clientGaveUp() {
        return inputShut[Side.CLIENT.ordinal()] && (nothingToPass() || backend.httpOptions().abortOnClose);
    }

    /** Nothing the client sent waits for the server connection (HAProxy's empty request channel). */
    private boolean nothingToPass() {
        return early == null || !early.isReadable();
    }

    /** The session ends without a server: CQ in a queue (Tw counted until now), CC while connecting. */
    private void giveUp() {
        log.serverAssigned();
        log.error('C');
        abort();
    }

    /** {@code timeout queue} expired before a slot came: the session ends (sQ). */
    private void queueExpired() {
        queueTimer = null;
        if (!finished && ticket.cancel()) {
            log.serverAssigned(); // Tw ends here: HAProxy logs the time spent waiting
            log.error('s', 'Q');
            abort();
        }
    }

    private void connected(Channel ch, SocketAddress address, boolean success, Throwable cause) {
        if (finished || ch != server) {
            ch.close();
            return;
        }
        if (!success) {
            log.connectFailed(ch, address);
            ch.close();
            server = null;
            if (attempts > backend.retries()) {
                log.error(ConnError.connectTimedOut(cause) ? 's' : 'S', 'C');
                abort();
                return;
            }
            if (backend.redispatch(target, attempts)) {
                // another server, at once: the slot of this one goes back
                avoid = target;
                ticket.release();
                connect();
                return;
            }
            // HAProxy waits min(timeout connect, 1s) before retrying after a refusal, not after a timeout.
            long delay = ConnError.connectTimedOut(cause) ? 0
                    : Math.min(1000, backend.timeouts().connect > 0 ? backend.timeouts().connect : 1000);
            client.eventLoop().schedule(this::connect, delay, TimeUnit.MILLISECONDS);
            return;
        }
        connected = true;
        log.connected(ch);
        frontend.logger().serverConnected(logged);
        Server srv = target;
        srv.connectionOpened();
        ch.closeFuture().addListener(f -> srv.connectionClosed());
        sendProxyHeader(target, ch);
        if (target.transport() != null) {
            target.transport().install(ch, this, target.counters(), backend.counters());
        }
        startForwarding(ch);
        startResponseRules();
    }

    /** The server connection {@code ch} is up: send what the client sent so far, then relay both ways. */
    private void startForwarding(Channel ch) {
        if (early != null) {
            written[Side.SERVER.ordinal()] += early.readableBytes();
            ch.write(early, ch.voidPromise());
            early = null;
        }
        ch.flush();
        clientRelay.peer(ch);
        long now = System.nanoTime();
        lastActive[0] = now;
        lastActive[1] = now;
        if (inputShut[Side.CLIENT.ordinal()]) {
            shutOutput(ch);
        }
        ch.config().setAutoRead(true);
        if (!inputShut[Side.CLIENT.ordinal()]) {
            client.config().setAutoRead(true);
        }
        rearm();
    }

    /** Bytes were read on {@code side}: it is active. */
    void read(Side side, int bytes) {
        called();
        long now = System.nanoTime();
        lastActive[side.ordinal()] = now;
        received[side.ordinal()] += bytes;
        Side other = side.other();
        written[other.ordinal()] += bytes;
        lastWrite[other.ordinal()] = now;
        if (inputShut[other.ordinal()]) {
            // A side that sent its FIN is timed only while it has bytes to take (checkTimeouts): they start now.
            lastActive[other.ordinal()] = now;
        }
    }

    /**
     * Bytes read on {@code side} that cannot go on yet: the client's before the server connection is established
     * (sent once it is), the server's while tcp-response content rules inspect them (counted as read from it).
     */
    void hold(Side side, ByteBuf buf) {
        if (finished) {
            buf.release();
            return;
        }
        lastActive[side.ordinal()] = LoopClock.nanoTime();
        received[side.ordinal()] += buf.readableBytes();
        if (side == Side.SERVER) {
            written[Side.CLIENT.ordinal()] += buf.readableBytes();
            response = append(response, buf);
            inspectResponse();
            return;
        }
        early = append(early, buf);
        if (early.readableBytes() >= room) {
            client.config().setAutoRead(false); // a buffer's worth waits for the server (or the rules)
        }
        if (inspecting != null) {
            proceed();
        }
    }

    private ByteBuf append(ByteBuf held, ByteBuf buf) {
        if (held == null) {
            return buf;
        }
        if (held instanceof CompositeByteBuf composite) {
            return composite.addComponent(true, buf);
        }
        return client.alloc().compositeBuffer().addComponents(true, held, buf);
    }

    private void releaseEarly() {
        if (early != null) {
            early.release();
            early = null;
        }
        if (response != null) {
            response.release();
            response = null;
        }
    }

    /** {@code side} took all its pending bytes: it is active (unless only what it sends counts). */
    /**
     * {@code side} takes less than it is sent: from now on its timeout runs on what it takes, seen by checks a
     * quarter of the timeout apart (nextDeadline) that count only what it takes after this moment.
     */
    void blocked(Side side) {
        if (finished) {
            return;
        }
        Channel ch = side == Side.CLIENT ? client : server;
        flushedSeen[side.ordinal()] = written[side.ordinal()] - pending(ch);
        rearm();
    }

    void drained(Side side) {
        if (!independent(side)) {
            lastActive[side.ordinal()] = LoopClock.nanoTime();
        }
    }

    /** {@code side} sent a FIN: pass it on once what it sent before is delivered. */
    void inputShut(Side side) {
        inputShut[side.ordinal()] = true;
        if (side == Side.SERVER && inspectingResponse) {
            inspectResponse(); // no more bytes: the rules decide now
            if (finished) {
                return;
            }
        }
        Channel peer = side == Side.CLIENT ? server : client;
        if (side == Side.CLIENT && !connected) {
            if (inspecting != null) {
                proceed(); // no more bytes: the rules decide now
            } else if (ticket != null && !finished && clientGaveUp()) {
                giveUp();
            }
            return; // passed on when the server connection is established
        }
        if (inputShut[0] && inputShut[1]) {
            CloseAfterFlush.close(client, timeout(Side.CLIENT));
            CloseAfterFlush.close(server, timeout(Side.SERVER));
            finished = true;
            return;
        }
        if (peer != null) {
            shutOutput(peer);
        }
        // With client-fin or server-fin the other side's clock restarts with that timeout, as in HAProxy; without,
        // it runs on from its last activity.
        if (finTimeout(side.other()) > 0) {
            lastActive[side.other().ordinal()] = LoopClock.nanoTime();
        }
        rearm();
    }

    /** {@code side}'s connection closed: flush what remains to the other side, then close it too. */
    void closed(Side side) {
        if (side == Side.SERVER && !connected) {
            return; // a failed attempt; connected() decides what comes next
        }
        if (side == Side.SERVER && inspectingResponse && !finished) {
            inputShut[side.ordinal()] = true;
            inspectResponse(); // the rules decide with what came
        }
        if (side == Side.CLIENT && !connected) {
            log.error('C'); // gone before the server connection was established
        }
        finished = true;
        cancelTimer();
        releaseEarly();
        Channel peer = side == Side.CLIENT ? server : client;
        if (peer != null) {
            CloseAfterFlush.close(peer, timeout(side.other()));
        }
    }

    /** Ends everything at once: no server, a timeout, a failure. */
    private void abort() {
        finished = true;
        cancelTimer();
        if (queueTimer != null) {
            queueTimer.cancel(false);
            queueTimer = null;
        }
        if (server != null) {
            server.close();
        }
        client.close();
        releaseEarly();
    }

    private static void shutOutput(Channel ch) {
        if (pending(ch) == 0) {
            // Nothing to wait for: an empty write would only sit in the outbound buffer, where its entry counts
            // as bytes waiting for the peer (a slow reader to the timeouts).
            if (ch.isActive()) {
                ((DuplexChannel) ch).shutdownOutput();
            }
            return;
        }
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
            if (ch.isActive()) {
                ((DuplexChannel) ch).shutdownOutput();
            }
        });
    }

    // --- timeouts -------------------------------------------------------------------------------

    /**
     * The inactivity timeout of {@code side} now, in ms; 0 means none. As in HAProxy, client-fin (server-fin)
     * replaces the others on the client (server) side once the proxy has shut its output towards that side:
     * the other side's FIN was passed on, and this one is still expected to acknowledge or send.
     */
    private long timeout(Side side) {
        Timeouts be = backend == null ? frontend.timeouts() : backend.timeouts();
        if (inputShut[side.other().ordinal()]) {
            long fin = finTimeout(side);
            if (fin > 0) {
                return fin;
            }
        }
        long tunnel = tunnelTimeout > 0 ? tunnelTimeout : be.tunnel;
        if (connected && tunnel > 0) {
            return tunnel;
        }
        return side == Side.CLIENT ? frontend.timeouts().client : be.server;
    }

    /** {@code side}'s timeout once the other side has shut (client-fin, server-fin); 0 when not set. */
    private long finTimeout(Side side) {
        return side == Side.CLIENT ? frontend.timeouts().clientFin
                : backend == null ? frontend.timeouts().serverFin : backend.timeouts().serverFin;
    }

    /**
     * cur_server_timeout / cur_tunnel_timeout as HAProxy's stream holds them: none (0) before the server connection,
     * then the backend's; the tunnel timeout replaces the server one once the response rules are done.
     */
    @Override
    public long currentTimeout(boolean tunnel) {
        if (!connected || backend == null) {
            return 0;
        }
        long t = tunnelTimeout > 0 ? tunnelTimeout : backend.timeouts().tunnel;
        return tunnel || !inspectingResponse && !responseSide && t > 0 ? t : backend.timeouts().server;
    }

    /** {@code option independent-streams} on the frontend (the client side) or the backend (the server side). */
    private boolean independent(Side side) {
        Timeouts t = side == Side.CLIENT ? frontend.timeouts() : backend == null ? null : backend.timeouts();
        return t != null && t.independentStreams;
    }

    private void rearm() {
        cancelTimer();
        armTimer();
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** Schedules one check at the earliest deadline; the check re-arms itself for the next one. */
    private void armTimer() {
        if (finished) {
            return;
        }
        long next = nextDeadline();
        if (next != Long.MAX_VALUE) {
            timer = client.eventLoop().schedule(this::checkTimeouts, Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /** The earliest deadline (nanoTime) of the session's timeouts, or Long.MAX_VALUE. */
    private long nextDeadline() {
        long next = Long.MAX_VALUE;
        for (Side side : Side.values()) {
            long t = timeout(side);
            if (t > 0 && (side == Side.CLIENT || connected)) {
                long nanos = TimeUnit.MILLISECONDS.toNanos(t);
                next = Math.min(next, lastActive[side.ordinal()] + nanos);
                Channel ch = side == Side.CLIENT ? client : server;
                if (ch != null && pending(ch) > 0) {
                    // What a slow reader takes is seen at the checks only (checkTimeouts): while bytes wait for it,
                    // a check every quarter of its timeout keeps the timeout within a quarter of HAProxy's.
                    next = Math.min(next, System.nanoTime() + nanos / 4);
                }
            }
        }
        if (inspecting != null) {
            next = Math.min(next, inspectDeadline);
        }
        if (inspectingResponse) {
            next = Math.min(next, responseDeadline);
        }
        return next;
    }

    private void checkTimeouts() {
        timer = null;
        if (finished) {
            return;
        }
        long now = System.nanoTime();
        if (inspecting != null && now - inspectDeadline >= 0) {
            proceed(); // the inspect delay is over: the rules decide with what came
            return;
        }
        if (inspectingResponse && now - responseDeadline >= 0) {
            inspectResponse(); // the tcp-response inspect delay is over: the rules decide with what came
            return;
        }
        for (Side side : Side.values()) {
            Channel ch = side == Side.CLIENT ? client : server;
            long t = timeout(side);
            if (t <= 0 || ch == null || side == Side.SERVER && !connected) {
                continue;
            }
            // Bytes the peer accepted since the last check count as activity (a slow reader is not idle); with
            // option independent-streams only while more wait for it (HAProxy's write timeout), not once all went.
            // All taken: they went when they were written (not now, which would put the deadline up to a timeout
            // late); some still waiting: the peer took some since the last check.
            long waiting = pending(ch);
            long flushed = written[side.ordinal()] - waiting;
            if (flushed != flushedSeen[side.ordinal()]) {
                flushedSeen[side.ordinal()] = flushed;
                if (!independent(side) || waiting > 0) {
                    lastActive[side.ordinal()] = Math.max(lastActive[side.ordinal()], waiting > 0 ? now : lastWrite[side.ordinal()]);
                }
            }
            if (inputShut[side.ordinal()] && pending(ch) == 0) {
                // This side sent its FIN and has nothing waiting for it: nothing is expected from it, so it
                // cannot be idle (HAProxy stops its read timeout on a shut input and runs the write timeout
                // only while data waits). A client that half-closed may wait for a slow server.
                lastActive[side.ordinal()] = now;
                continue;
            }
            Channel peer = side == Side.CLIENT ? server : client;
            if (pending(ch) == 0 && peer != null && !peer.isWritable()) {
                // This side is not read while its peer does not take what it sent, and nothing waits for it: HAProxy's
                // read timeout is off while the buffer is full, the peer's write timeout runs instead.
                lastActive[side.ordinal()] = now;
                continue;
            }
            if (now - lastActive[side.ordinal()] >= TimeUnit.MILLISECONDS.toNanos(t)) {
                log.error(side == Side.CLIENT ? 'c' : 's');
                if (pending(ch) == 0) {
                    // As HAProxy: only this side's reading timed out; it is shut (its FIN passed on), and what the
                    // other side still sends goes on, until that side's own timeout or close ends the session.
                    ch.config().setAutoRead(false);
                    inputShut(side);
                    if (finished) {
                        return;
                    }
                    continue;
                }
                abort();
                return;
            }
        }
        armTimer();
    }

    // --- what show sess sees and does (LiveStream) --------------------------------------------------

    @Override
    public void kill(char cause) {
        log.error(cause, '-'); // as HAProxy, which leaves the state unset on a kill
        abort();
    }

    @Override
    protected long deadline() {
        return finished ? Long.MAX_VALUE : nextDeadline();
    }

    @Override
    protected long clientDeadline() {
        return sideDeadline(Side.CLIENT);
    }

    @Override
    protected long serverDeadline() {
        return connected ? sideDeadline(Side.SERVER) : Long.MAX_VALUE;
    }

    private long sideDeadline(Side side) {
        long t = timeout(side);
        return finished || t <= 0 ? Long.MAX_VALUE : lastActive[side.ordinal()] + TimeUnit.MILLISECONDS.toNanos(t);
    }

    @Override
    protected int serverSideState() {
        if (server != null) {
            return connected ? 8 : 5;
        }
        return ticket != null && ticket.queued() ? 2 : 0;
    }

    @Override
    protected boolean http() {
        return false;
    }

    @Override
    protected Channel serverChannel() {
        return connected ? server : null;
    }

    /** The server connection, once it is being made: bc_src, bc_dst... */
    @Override
    public Channel backChannel() {
        return server;
    }

    /** A side failed (a reset, a write error): the first such event is the session's termination cause. */
    void failed(Side side) {
        if (side == Side.CLIENT && !connected && ticket != null) {
            // A reset while the session waits in a queue or for its server connection: HAProxy takes it as any client
            // error, CD, the wait counted in Tw.
            log.serverAssigned();
            log.error('C', 'D');
            return;
        }
        log.error(side == Side.CLIENT ? 'C' : 'S');
    }

    /** The client connection closed: the session ends when the server connection has closed too, then logs. */
    private void clientGone() {
        if (detached) {
            return; // logged already, or by the HTTP side
        }
        Channel s = server;
        if (s != null && s.isOpen()) {
            s.closeFuture().addListener(f -> ended());
        } else {
            ended();
        }
    }

    @Override
    protected void countRunningBytes() {
        RunningCounts.update(this, written[Side.SERVER.ordinal()], written[Side.CLIENT.ordinal()]);
    }

    private void ended() {
        unregister();
        log.bytesIn(received[Side.CLIENT.ordinal()]);
        log.bytesOut(received[Side.SERVER.ordinal()]);
        if (attempts > 0) {
            log.retries(attempts - 1);
        }
        frontend.logger().ended(logged);
    }

    private static long pending(Channel ch) {
        ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
        return out == null ? 0 : out.totalPendingWriteBytes();
    }

    // --- what rules and log lines see (SampleContext) ------------------------------------------------

    @Override
    public SocketAddress source() {
        return endpoints != null ? endpoints.source() : Endpoints.of(client).source();
    }

    @Override
    public SocketAddress destination() {
        return endpoints != null ? endpoints.destination() : Endpoints.of(client).destination();
    }

    @Override
    public Endpoints endpoints() {
        if (endpoints == null) {
            endpoints = Endpoints.of(client).copy();
        }
        return endpoints;
    }

    @Override
    public long priority(boolean offset) {
        return QueuePriority.get(priority, offset);
    }

    @Override
    public void priority(boolean offset, long value) {
        priority = QueuePriority.with(priority, offset, value);
    }

    @Override
    public Channel frontChannel() {
        return client;
    }

    @Override
    public Frontend frontend() {
        return frontend;
    }

    @Override
    public Backend backend() {
        return backend != null ? backend : frontend.self(); // (a listen's own until the switching rules ran)
    }

    @Override
    public Server server() {
        return target;
    }

    @Override
    public RequestHead request() {
        return null;
    }

    /** HAProxy's http_first_req is true in a TCP stream. */
    @Override
    public long requestNumber() {
        return 1;
    }

    @Override
    public RequestHead heldRequest() {
        ByteBuf content = requestContent();
        if (content == null || heads == null) {
            return null;
        }
        if (content.readableBytes() != heldBytes) { // bytes only ever come after those read
            held = heads.read(content);
            heldBytes = content.readableBytes();
        }
        if (held.incomplete() && awaitingContent()) {
            contentMissing();
        }
        return held.head();
    }

    @Override
    public ResponseHead response() {
        return null;
    }

    @Override
    public StreamLog streamLog() {
        return log;
    }

    @Override
    public Vars vars(VarScope scope) {
        return switch (scope) {
            case PROC -> Vars.PROC;
            // In TCP mode the transaction is the session.
            case SESS, TXN -> Vars.session(client);
            default -> null;
        };
    }
}
