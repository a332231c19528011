package io.fulcrum.mux.h1;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.CloseAfterFlush;
import io.fulcrum.http.ErrorPages;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.log.ConnectionContext;
import io.fulcrum.log.StreamLog;
import io.fulcrum.pool.ReuseKey;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LazyTimer;
import io.fulcrum.runtime.SoftStop;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.fulcrum.stream.HttpStream;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A client connection in {@code mode http} over HTTP/1.x: parses requests one at a time (pipelined ones
 * wait in the input buffer until the previous response is complete), hands each to an
 * {@link HttpStream}, and enforces {@code timeout http-request} (408) and {@code timeout http-keep-alive}
 * while no request is in progress. It records for the log what only it sees: when each request begins, its
 * bytes as HAProxy counts them (%U: the HTX data of what it parsed), and the requests that fail before a
 * transaction exists (400, 408, a client gone: no bytes counted, as HAProxy's {@code <BADREQ>} lines).
 */
public final class H1FrontConnection extends ChannelDuplexHandler implements MessageSink {
    private final Frontend frontend;
    private final EventLoops loops;
    private final H1Limits limits;
    /** The case of the names written to this client. */
    private final HeaderCase clientNames;
    /** The case of the names written to servers whose backend asks for it. */
    private final HeaderCase serverNames;
    private final H1Parser parser;
    private Channel channel;
    private ByteBuf input;
    private HttpStream stream;
    private boolean firstRequest = true;
    /** The requests that started a transaction on this connection. */
    private long requests;
    private boolean inputShut;
    /** Bytes of a next request came (empty lines count, as for HAProxy); reset by each head. */
    private boolean requestBegun;
    private boolean closing;
    /** The connection's one timer: the wait for a request head, or the running transaction's timeouts. */
    private LazyTimer timer;
    /** The timer is the idle keep-alive one: no byte of the next request has arrived. */
    private boolean idleTimer;
    /** The server connections this client keeps for itself between requests ({@code http-reuse never}...). */
    private final SessionServerConns ownServers;
    private Server lastServer;
    /** A soft stop began: no request after the current one. */
    private boolean stopping;
    /** The request for which {@link #stopping()} last drew whether the soft stop closes this connection. */
    private HttpStream requestOfStop;
    /** Inside the parser: a transaction ending now must not parse the next request re-entrantly. */
    private boolean parsing;
    /**
     * The log record of the request awaited, begun at the accept or at the end of the previous transaction;
     * null when none is (the connection is closing, or a transaction runs).
     */
    private StreamLog next;
    /** The first request continues a TCP session that became HTTP: the frontend's tcp-request content rules ran. */
    private boolean continuesTcp;
    /** The backend they chose for it, or null (switch-mode http: the switching rules run as for any request). */
    private Backend tcpBackend;

    public H1FrontConnection(Frontend frontend, EventLoops loops, H1Limits limits, HeaderCase names) {
        this.frontend = frontend;
        this.loops = loops;
        this.limits = limits;
        this.clientNames = names.when(frontend.httpOptions().caseAdjustClient);
        this.serverNames = names;
        this.parser = new H1Parser(H1Parser.Kind.REQUEST, limits, frontend.httpOptions().acceptInvalidRequest);
        this.ownServers = new SessionServerConns(frontend.httpOptions().maxSessionServerConns);
    }

    /**
     * This connection continues a TCP session that became HTTP (its backend is in mode http, or switch-mode http), in
     * place as in HAProxy: its first request has the session's record, skips the frontend's tcp-request content rules,
     * which ran, and goes to {@code backend} unless null.
     */
    public H1FrontConnection continuing(Backend backend, StreamLog log) {
        continuesTcp = true;
        tcpBackend = backend;
        next = log;
        return this;
    }

    public Channel channel() {
        return channel;
    }

    public EventLoops loops() {
        return loops;
    }

    public H1Limits limits() {
        return limits;
    }

    /** The case of the header names written to this client. */
    public HeaderCase clientNames() {
        return clientNames;
    }

    /** The case of the header names written to a server of {@code backend}. */
    public HeaderCase serverNames(Backend backend) {
        return serverNames.when(backend.httpOptions().caseAdjustServer);
    }

    /** The session's addresses: the PROXY header's with accept-proxy, as tcp-request connection/session rules left them. */
    public Endpoints endpoints() {
        return Endpoints.of(channel);
    }

    /** The client's address (from the PROXY header with accept-proxy). */
    public SocketAddress source() {
        return endpoints().source();
    }

    /** The address the client connected to (from the PROXY header with accept-proxy). */
    public SocketAddress destination() {
        return endpoints().destination();
    }

    /** The variables that live as long as the client connection. */
    public Vars sessionVars() {
        return Vars.session(channel);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        if (!continuesTcp) {
            next = frontend.logger().firstStream(channel);
        }
        if (channel.isActive()) {
            armHeadTimer();
            // Added once the PROXY header was read (accept-proxy), which paused reading: read the request.
            channel.config().setAutoRead(true);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        armHeadTimer();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (closing) {
            in.release();
            return;
        }
        if (stream == null && next != null && in.isReadable()) {
            next.requestStarted();
        }
        if (stream != null) {
            stream.clientActive();
        } else if (idleTimer) {
            // The next request has started: from now on it has timeout http-request to complete.
            long request = frontend.timeouts().httpRequest;
            armHeadTimerFor(request > 0 ? request : frontend.timeouts().client);
        }
        input = H1Input.append(input, in);
        parseInput();
    }

    private void parseInput() {
        while (input != null && input.isReadable() && !closing && (stream == null || !stream.requestEnded())) {
            requestBegun |= stream == null;
            int before = input.readerIndex();
            parsing = true;
            try {
                parser.parse(input, this);
                if (stream != null) {
                    stream.parsed();
                }
            } catch (H1Exception e) {
                requestError(e);
                return;
            } finally {
                parsing = false;
            }
            if (input == null || input.readerIndex() == before) {
                break; // needs more bytes
            }
        }
        // Reading stays on while a response is awaited (toggling it costs two epoll_ctl calls per
        // request); only a client that pipelines more than a buffer's worth, or a busy server, stops it.
        if (stream != null && (stream.serverBusy()
                || stream.requestEnded() && input != null && input.readableBytes() > limits.bufsize())) {
            channel.config().setAutoRead(false);
        }
        if (stream != null) {
            stream.flushToServer();
        }
        if (inputShut && stream == null && !closing) {
            inputEnded();
        }
    }

    // --- parser events ----------------------------------------------------------------------------

    @Override
    public void head(HttpHead head) {
        if (head.bodyLength() == HttpHead.CHUNKED && input.isReadable() && parser.chunkedBodyError(input) != null) {
            // A bad chunk in what came with the head: no transaction begins (as in HAProxy: <BADREQ>, PR--); the
            // parser meets the error next, and the body bytes before it are dropped meanwhile.
            return;
        }
        cancelHeadTimer();
        requestBegun = false;
        StreamLog log = next != null ? next : newLog();
        next = null;
        log.requestHead((RequestHead) head);
        log.bytesIn(HopByHop.receivedData(head)); // as received: the rules' changes do not count
        if (parser.relaxed() != null) {
            keepForShowErrors(parser.relaxed(), true);
        }
        requests++;
        if (!continuesTcp && frontend.logger().logsAccepts()) {
            // A stream begins: HAProxy's default format (no log format set) logs its "Connect from" line now.
            Endpoints e = endpoints();
            frontend.logger().accepted(e.source(), e.destination());
        }
        stream = new HttpStream(this, frontend, (RequestHead) head, log);
        if (continuesTcp) {
            continuesTcp = false;
            stream.startAfterTcp(tcpBackend);
            tcpBackend = null;
        } else {
            stream.start();
        }
    }

    @Override
    public void data(ByteBuf data) {
        if (stream != null && !stream.finished()) {
            stream.streamLog().bytesIn(data.readableBytes());
            stream.requestData(data);
        } else {
            data.release();
        }
    }

    @Override
    public void trailers(HttpHeaders trailers) {
        if (stream != null && !stream.finished()) {
            stream.streamLog().bytesIn(trailers.htxData());
            stream.requestTrailers(trailers);
        }
    }

    @Override
    public void end() {
        if (stream != null && !stream.finished()) {
            if (stream.request().bodyLength() == HttpHead.CHUNKED) {
                stream.streamLog().bytesIn(HttpHead.HTX_END); // the end of trailers, even when there are none
            }
            stream.requestEnd();
        }
    }

    // --- stream events ----------------------------------------------------------------------------

    /** The server side can take request bytes again. */
    public void resumeIfPaused() {
        if (stream != null && !stream.requestEnded() && !closing) {
            EventLoops.resumeReading(channel);
        }
    }

    /** The transaction ended; the connection waits for the next request or closes. */
    public void streamDone(HttpStream done, boolean keepAlive) {
        if (done != stream) {
            return;
        }
        ended(done);
        stream = null;
        firstRequest = false;
        // After the client's half-close, every request it sent before is still answered (HAProxy 2.6 answers only
        // the one under way: see docs/differences.md); parseInput() closes once no complete request is left.
        if (!keepAlive || stopping() || inputShut && (input == null || !input.isReadable())) {
            closeAfterFlush();
            return;
        }
        channel.flush();
        next = newLog();
        if (input != null && input.isReadable()) {
            next.requestStarted(); // pipelined: already here
        }
        armHeadTimer();
        if (frontend.process() != null && frontend.process().closing()) {
            closeWhenIdle(); // kept open by close-spread-time: idle again, it waits for its turn
        }
        EventLoops.resumeReading(channel);
        if (!parsing) {
            parseInput();
        }
    }

    /** The connection becomes a tunnel: this handler leaves and hands over the bytes it holds (or null). */
    public ByteBuf leaveForTunnel() {
        stream = null;
        closing = true;
        if (timer != null) {
            timer.cancel();
        }
        ByteBuf left = input != null && input.isReadable() ? input : null;
        if (left == null && input != null) {
            input.release();
        }
        input = null;
        channel.pipeline().remove(this);
        return left;
    }

    /** The record of a next request (an HTTP one, also when a TCP frontend's session became HTTP). */
    private StreamLog newLog() {
        return frontend.logger().newStream().asHttp();
    }

    /** A transaction ends: off the live streams ({@code show sess}), then logged. */
    /** The transaction ends with the client connection (streamDone, which it may call, then leaves it alone). */
    private void endClosed() {
        HttpStream s = stream;
        stream = null;
        s.clientClosed();
        ended(s);
    }

    private void ended(HttpStream s) {
        s.unregister();
        frontend.logger().ended(s);
    }

    /** Sends HAProxy's error page for {@code status} and closes. */
    public void sendErrorAndClose(int status) {
        stream = null;
        cancelHeadTimer();
        closing = true;
        channel.config().setAutoRead(false);
        channel.write(ErrorPages.builtin(status));
        CloseAfterFlush.close(channel, frontend.timeouts().client);
    }

    public void closeAfterFlush() {
        closing = true;
        cancelHeadTimer();
        CloseAfterFlush.close(channel, frontend.timeouts().client);
    }

    /** Keeps the request for {@code show errors}: its head just read ({@code head}), or where the parser failed. */
    private void keepForShowErrors(H1Exception e, boolean head) {
        H1Errors errors = frontend.process().h1Errors();
        H1Capture capture = head ? parser.headCapture(input, errors.bufsize()) : parser.capture(input, errors.bufsize());
        errors.request(frontend, source(), capture, e);
    }

    private void requestError(H1Exception e) {
        keepForShowErrors(e, false);
        if (stream != null && stream.responseStarted()) {
            stream.streamLog().error('P');
            stream.abort();
        } else {
            if (stream != null) {
                // A body that cannot be parsed: the transaction ends with the 400 the client gets.
                stream.streamLog().error('P');
                stream.streamLog().status(e.status());
                endClosed();
            } else {
                logFailure('P', e.status());
            }
            sendErrorAndClose(e.status());
        }
    }

    /**
     * Logs the awaited request as failed before it became a transaction, as HAProxy logs such requests
     * ({@code <BADREQ>}, state R): refused ('P'), timed out ('c') or abandoned ('C').
     */
    private void logFailure(char cause, int status) {
        StreamLog log = next != null ? next : newLog();
        next = null;
        log.badRequest();
        log.error(cause, 'R');
        log.status(status);
        frontend.logger().connectionFailed(new ConnectionContext(channel, frontend, sessionVars(), log));
    }

    /** Tells the transaction's log that its response began (the errors sent before any transaction do not). */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (stream != null && msg instanceof ByteBuf b && b.isReadable()) {
            stream.streamLog().written();
        }
        ctx.write(msg, promise);
    }

    // --- connection events --------------------------------------------------------------------------

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (stream != null) {
            stream.clientWritable(ctx.channel().isWritable());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == SoftStop.INSTANCE) {
            stopping = frontend.process().closeSpread().closesActive();
            closeWhenIdle();
            return;
        }
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShut = true;
            if (stream == null && !closing) {
                inputEnded(); // (complete requests are never left waiting in the input while no stream runs)
            } else if (stream != null) {
                stream.clientShut();
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ownServers.closeAll();
        if (timer != null) {
            timer.cancel();
        }
        if (stream != null) {
            endClosed();
        } else if (next != null && (firstRequest || next.hasRequest())) {
            logFailure('C', 400); // the client left without a complete request
        }
        if (input != null) {
            input.release();
            input = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    // --- waiting for a request -----------------------------------------------------------------------

    /**
     * {@code timeout http-request} bounds the wait for a complete head; between two requests
     * {@code timeout http-keep-alive} applies first. Each falls back as HAProxy's does, down to
     * {@code timeout client}.
     */
    private void armHeadTimer() {
        long request = frontend.timeouts().httpRequest;
        long keepAlive = frontend.timeouts().httpKeepAlive;
        long client = frontend.timeouts().client;
        boolean idle = !firstRequest && (input == null || !input.isReadable());
        long t = idle && keepAlive > 0 ? keepAlive : request > 0 ? request : client;
        timer().setIn(t);
        idleTimer = idle;
    }

    /**
     * The server of this connection's previous transaction when its server connection was kept for reuse
     * ({@code option prefer-last-server} goes back to it), or null.
     */
    public Server lastServer() {
        return lastServer;
    }

    public void lastServer(Server server) {
        lastServer = server;
    }

    /** No request was completed on this connection yet ({@code http-reuse safe} opens a new server connection). */
    /** The transactions started on this connection, the current one included. */
    public long requests() {
        return requests;
    }

    public boolean firstRequest() {
        return firstRequest;
    }

    /**
     * Keeps {@code conn} to {@code target} for this connection's next requests ({@code http-reuse never}...), unless
     * it keeps {@code max-session-srv-conns} already: then {@code conn} is closed.
     */
    public void keepPrivateServer(Server target, H1ServerConnection conn) {
        ownServers.keep(target, conn);
    }

    /**
     * A kept connection to its last server is bound to it by authentication (NTLM): its requests prefer that
     * server, as HAProxy's.
     */
    public boolean boundToServer() {
        return lastServer != null && ownServers.boundTo(lastServer);
    }

    /**
     * This connection's own idle server connection to {@code target}, opened with the key {@code to} unless null, or null; the
     * others stay kept.
     */
    public H1ServerConnection takePrivateServer(Server target, ReuseKey to) {
        return ownServers.take(target, to);
    }

    /** Inside the parser: what it found so far of the current input is not all it will pass. */
    public boolean parsing() {
        return parsing;
    }

    /**
     * During a soft stop, an idle connection closes now, or at its moment of close-spread-time; one whose next request
     * has begun to arrive is answered first (as HAProxy, which only closes idle connections at a soft stop). With
     * option idle-close-on-response, an idle one too waits for a last request (or its timeout).
     */
    private void closeWhenIdle() {
        long delay = frontend.process().closeSpread().idleCloseDelay();
        if (delay == 0) {
            closeIfIdle();
        } else if (delay > 0) {
            channel.eventLoop().schedule(this::closeIfIdle, delay, TimeUnit.MILLISECONDS);
        }
    }

    private void closeIfIdle() {
        if (stream == null && !closing && (next == null || !next.hasRequest()) && !frontend.httpOptions().idleCloseOnResponse) {
            next = null;
            closeAfterFlush();
        }
    }

    /**
     * A soft stop began and this connection closes after the current response (it says "connection: close"); with
     * close-spread-time, a connection may serve a few more before it is its turn. A request may arrive between the
     * listeners' close and the soft stop's event on this loop: it is decided then.
     */
    public boolean stopping() {
        if (!stopping && stream != null && requestOfStop != stream && frontend.process() != null && frontend.process().closing()) {
            requestOfStop = stream; // one draw per request, so that its response and the connection agree
            stopping = frontend.process().closeSpread().closesActive();
        }
        return stopping;
    }

    public LazyTimer timer() {
        if (timer == null) {
            timer = new LazyTimer(channel.eventLoop(), this::timerExpired);
        }
        return timer;
    }

    private void timerExpired() {
        if (closing) {
            return;
        }
        if (stream != null) {
            stream.checkTimeouts();
        } else if (idleTimer) {
            next = null;
            closeAfterFlush(); // an idle keep-alive connection just closes
        } else if (probe()) {
            closeAfterFlush();
        } else {
            logFailure('c', 408);
            sendErrorAndClose(408);
        }
    }

    /**
     * The client sends no more and no request is in progress: a request it began is a bad one (400), as is a
     * first one that never came unless that is a probe to ignore; otherwise the connection just closes.
     */
    private void inputEnded() {
        if (requestBegun || firstRequest && !probe()) {
            sendErrorAndClose(400);
        } else {
            closeAfterFlush();
        }
    }

    /**
     * A connection that brought no byte of a first request, that {@code option http-ignore-probes} closes without
     * a 400 or 408 (browsers open such connections in advance, and leave them).
     */
    private boolean probe() {
        return firstRequest && !requestBegun && frontend.httpOptions().ignoreProbes;
    }

    private void armHeadTimerFor(long ms) {
        idleTimer = false;
        timer().setIn(ms);
    }

    private void cancelHeadTimer() {
        idleTimer = false;
        if (timer != null) {
            timer.clear();
        }
    }
}
