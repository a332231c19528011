package io.fulcrum.stream;

import io.fulcrum.backend.Backend;
import io.fulcrum.backend.RetryOn;
import io.fulcrum.backend.QueuePriority;
import io.fulcrum.backend.Ticket;
import io.fulcrum.cache.CacheTxn;
import io.fulcrum.cache.HttpCache;
import io.fulcrum.compression.Algo;
import io.fulcrum.compression.Compression;
import io.fulcrum.compression.Encoder;
import io.fulcrum.compression.Negotiation;
import io.fulcrum.conn.ConnError;
import io.fulcrum.conn.SilentDrop;
import io.fulcrum.http.CacheableCookie;
import io.fulcrum.http.ErrorMessage;
import io.fulcrum.http.ForwardingHeaders;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.http.LiveReply;
import io.fulcrum.http.MonitorUri;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.listener.Listener;
import io.fulcrum.log.StreamLog;
import io.fulcrum.log.TransactionWatcher;
import io.fulcrum.mux.h1.H1Encoder;
import io.fulcrum.mux.h1.H1Exception;
import io.fulcrum.mux.h1.H1FrontConnection;
import io.fulcrum.mux.h1.H1ServerConnection;
import io.fulcrum.mux.h1.HeaderCase;
import io.fulcrum.mux.h1.HopByHop;
import io.fulcrum.mux.tcp.TcpSession;
import io.fulcrum.persist.PersistTxn;
import io.fulcrum.pool.Pick;
import io.fulcrum.pool.PrivateAuth;
import io.fulcrum.pool.ReuseMode;
import io.fulcrum.pool.ReuseKey;
import io.fulcrum.pool.ServerPool;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.Timeouts;
import io.fulcrum.rules.HttpRule;
import io.fulcrum.rules.HttpRules;
import io.fulcrum.rules.HttpTxn;
import io.fulcrum.rules.Reply;
import io.fulcrum.rules.ResponseControl;
import io.fulcrum.rules.Verdict;
import io.fulcrum.stats.Counters;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.sample.Resumption;
import io.fulcrum.sample.VarScope;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.sample.Vars;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerTransport;
import io.fulcrum.stats.StatsPage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AsciiString;

import java.io.ByteArrayOutputStream;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One HTTP transaction: a request from the client connection, the server connection that carries it
 * (from this loop's pool, or a new one with {@code timeout connect} and {@code retries}), and the
 * response back. Both connections live on the client's event loop. Bodies stream through with
 * back-pressure and are never reassembled. Failures before the response starts become HAProxy's
 * errors: 503 (no server, connection failed), 502 (invalid or truncated response), 504 (server
 * timeout).
 */
public final class HttpStream extends LiveStream implements HttpTxn, ResponseControl {
    private final H1FrontConnection front;
    /** The place of the request on its client connection, from 1 ({@code http_first_req}). */
    private final long number;
    private final StreamLog log;
    private final Channel client;
    private final Frontend frontend;
    private final RequestHead request;
    /**
     * The client asked with HEAD: its response has no body whatever the request became (http-request set-method),
     * as HAProxy's client side frames it by the method it parsed.
     */
    private final boolean clientHead;
    private boolean clientWantsClose;
    /** The client asked to switch protocols (Connection: upgrade + Upgrade). */
    private final boolean upgradeRequested;
    /** The exchange becomes a tunnel once the response head is sent (101, or 2xx to CONNECT). */
    private boolean tunnel;
    private Backend backend;
    /** The backend a TCP session chose before it became HTTP (this is its first request), or null. */
    private Backend switched;
    private Server target;
    /** The transaction's claim on a server slot (made when it first asks for a server). */
    /** Its place in the queues (set-priority-class, set-priority-offset), as {@link QueuePriority} packs it. */
    private long priority;
    private Ticket ticket;
    /** The server a redispatch left, which the algorithm avoids. */
    private Server avoid;
    /** When the wait in a queue ends ({@code timeout queue}), nanoTime; 0 when not queued or no limit. */
    private long queueDeadline;
    private H1ServerConnection server;
    /**
     * The server connection of the last attempt, attached or failed (its TLS handshake): what the bc_* fetches of the
     * log line see once the connection went back to the pool or closed, as HAProxy's stream keeps it to the end.
     */
    private Channel lastServerChannel;
    private HeaderCase serverNames = HeaderCase.NONE;
    /** The server waits for the request's body, or null. */
    private BodyWait bodyWait;
    /**
     * The rule to resume at when a wait-for-body rule held the list: a request rule (the backend's once it is chosen),
     * or, once the request rules are done, a response rule (the frontend's once {@link #backendResponseRulesDone}).
     */
    private int ruleIndex;
    /** What a waiting rule waits for ({@link #resumeWhen}); made by the first rule that waits. */
    private Resumption resumption;
    /** What arrived of the request while a wait-for-body rule held it, or null when no rule waited. */
    private HeldBody held;
    /** What arrived of the response while an http-response wait-for-body rule held it, or null when no rule waited. */
    private HeldBody heldResponse;
    private boolean backendResponseRulesDone;
    /** {@code option checkcache} refuses the response: judged on the server's fields, before the response rules, as HAProxy. */
    private boolean cacheableCookie;
    /** The request waits for its body before a server is chosen ({@code balance url_param} on a POST). */
    private boolean waitingBalanceBody;
    private int attempts;
    /** The request as sent, kept while a layer-7 retry ({@code retry-on}) may send it again, or null. */
    private RequestReplay replay;
    /** {@code http-request disable-l7-retry} ran. */
    private boolean l7RetryDisabled;
    /** What cookie persistence decided for this transaction, or null when the backend has none. */
    private PersistTxn persist;
    /** What the caches know of this transaction, or null when no cache rule ran. */
    private CacheTxn cache;

    /** Request bytes produced before the server connection is ready (usually the head alone: small at first). */
    private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>(2);
    private boolean requestEnded;
    private ResponseHead response;
    private boolean responseEnded;
    private boolean closeDelimitedToClient;
    /** The response body goes to the client in chunks (the server's are re-framed). */
    private boolean chunkedToClient;
    /** The response's body does not go to the client (see {@link #clientHead}). */
    private boolean bodyDropped;
    private boolean keepClient;
    private boolean trailersSent;
    /** The algorithm the request's Accept-Encoding selected, or null. */
    private Algo accepted;
    /** The algorithm the response is compressed with, once the server's head qualified; or null. */
    private Algo compressed;
    /** Compresses the response body on its way to the client, or null. */
    private Encoder encoder;
    private boolean responseTrailersSent;
    private boolean serverReusable = true;
    /** The request rules set a Connection field saying close: the server connection ends with this exchange. */
    private boolean serverCloseAsked;
    /** A layer-7 retry is under way: it goes on a new connection, not an idle one. */
    private boolean retriedOnNew;
    /** The server closed once its response had ended, before the request's: the rest of the body is dropped. */
    private boolean serverLeft;
    private boolean finished;
    /** The answer a tarpit holds back until {@link #tarpitEnd} (or the client's leaving), or null. */
    private Reply tarpitReply;
    private ScheduledFuture<?> tarpitEnd;
    /** The answer decided while the head was parsed, sent once the parser has passed what came with it. */
    private int answerAfterParse;

    /** Answers once the request's body is in ({@link #replyAfterBody}), or null; the body kept so far, or null past a buffer. */
    private Function<byte[], Reply> answerAfterBody;
    private ByteArrayOutputStream body;

    /** {@code timeout server} as set by {@code http-request set-timeout server}, or -1. */
    private long serverTimeoutOverride = -1;
    /** {@code timeout tunnel} as set by {@code http-request set-timeout tunnel}, or -1. */
    private long tunnelTimeoutOverride = -1;
    /** The fields of the 103 Early Hints response the request rules built, not sent yet. */
    private HttpHeaders earlyHints;
    /** Response rules are running: fetches serving both directions read the response. */
    private boolean responseSide;
    /** {@code strict-mode off} in the rule list running: a rewrite that does not fit is skipped. */
    private boolean softRewrites;
    /** The http-after-response rules are running. */
    private boolean afterResponse;
    /** An http-after-response rewrite failed in strict mode: the response the rules ran on is not sent. */
    private boolean afterResponseFailed;
    /** The proxy's 500 goes without http-after-response rules (HAProxy's "const" reply: they already failed on it). */
    private boolean constReply;
    /** HTX bytes of the body of the proxy's own response under rewrite: it shares the buffer with the head. */
    private int replyBodyHtx;
    /** The stream's own copy of the client's addresses once a rule rewrites them (set-src...), else null. */
    private Endpoints endpoints;
    /** Where the target is reached for this stream ({@link Server#target}), once asked; null again at each attempt. */
    private SocketAddress targetAddress;
    /** What an idle connection must have been opened with to serve this attempt ({@link #reuseKey()}), or null. */
    private ReuseKey reuseKey;
    private Vars txnVars;
    private Vars reqVars;
    private Vars resVars;

    private long lastClientActivity;
    private long lastServerActivity;

    /** @param log the record of this transaction, begun by the front connection */
    public HttpStream(H1FrontConnection front, Frontend frontend, RequestHead request, StreamLog log) {
        this.front = front;
        this.number = front.requests();
        this.log = log;
        this.client = front.channel();
        this.frontend = frontend;
        this.request = request;
        this.clientHead = request.isHead();
        HopByHop.Tokens conn = HopByHop.clean(request);
        this.upgradeRequested = conn.upgrade() && request.headers().contains("upgrade");
        this.clientWantsClose = conn.close() || request.version() < 11 && !conn.keepAlive() || request.closeAfter();
    }

    @Override
    public RequestHead request() {
        return request;
    }

    /** Routes the request and starts the server side. */
    public void start() {
        begin();
        if (!frontend.tcpRules().acceptContent(this)) {
            refused(true);
            return;
        }
        proceed();
    }

    /**
     * Starts the first request of a TCP session that became HTTP: the frontend's tcp-request content rules ran, and
     * chose {@code backend} unless null (switch-mode http: the switching rules run after the frontend's HTTP rules).
     */
    public void startAfterTcp(Backend backend) {
        begin();
        switched = backend;
        proceed();
    }

    private void begin() {
        register();
        long now = LoopClock.nanoTime();
        lastClientActivity = now;
        lastServerActivity = now;
    }

    /** HTTP/2's preface refused, monitoring requests, names refused, then the request rules and routing. */
    private void proceed() {
        TransactionWatcher watcher = TransactionWatcher.of(client);
        if (watcher != null) {
            watcher.request(this);
        }
        if (request.method().contentEqualsIgnoreCase("PRI")) {
            // HTTP/2's preface, on a connection that speaks HTTP/1: HAProxy's stream refuses the method (in any case and
            // any request) with its 400, and closes.
            log.preface();
            clientWantsClose = true;
            fail(400);
            return;
        }
        if (MonitorUri.matches(frontend.httpOptions().monitorUri, request)) {
            log.silence(); // "HAProxy will not forward it nor log it"
            fail(frontend.httpOptions().monitorFails(this) ? 503 : 200);
            return;
        }
        if (frontend.httpOptions().headerNames.refuses(request)) {
            log.error('P', 'R'); // (HAProxy's option is a deny rule of its own)
            fail(403);
            return;
        }
        continueRequest();
    }

    /**
     * Runs the request rules from where they stand (a wait-for-body rule may hold them: this runs again as the body
     * arrives), then routes the request and starts the server side.
     */
    private void continueRequest() {
        if (!waitingBalanceBody && !routeRequest()) {
            return;
        }
        if (cache != null && cache.hit()) {
            answerFromCache();
            if (held != null) {
                replayHeld(); // (what a wait-for-body rule held of the body goes nowhere)
            }
            return;
        }
        // balance url_param looks for its parameter in a POST body too: the server is chosen once it is in, or the
        // buffer is full (HAProxy's body analyser); a persistence cookie that names the server needs none.
        if (backend.hashesPostBody(request) && (persist == null || persist.direct() == null)) {
            waitingBalanceBody = true;
            long t = backend.timeouts().httpRequest;
            if (!bodyIn(request, t > 0 ? t : frontend.timeouts().client, 0)) {
                return;
            }
        }
        forwardRequest();
        if (held != null) {
            replayHeld();
        }
    }

    /**
     * A {@code cache-use} rule found the response: it is answered as a server's response would be (through the
     * response rules and compression), by {@code <CACHE>} in the logs with HAProxy's "LR" state.
     */
    private void answerFromCache() {
        log.enterBackend(backend, null);
        log.applet(HttpCache.APPLET);
        log.error('L', 'R');
        accepted = Negotiation.select(request, frontend.compression(), backend.compression());
        ResponseHead head = cache.answerHead(request);
        ByteBuf body = cache.answerBody(head);
        cache.release(); // (the body holds what it needs)
        responseHead(head);
        if (body != null) {
            responseData(body);
        }
        responseEnd();
    }

    /** The request rules, the backend's choice and persistence; false when the rules answered or wait. */
    private boolean routeRequest() {
        if (backend == null) {
            if (!bufferedFor(frontend.httpOptions(), frontend.timeouts()) || !requestRulesDone(frontend.rules()) || servedStats(frontend.statsPage())) {
                return false;
            }
            flushEarlyHints();
            backend = switched != null ? switched : frontend.backend(this);
            if (backend == null) {
                log.error('S', 'C');
                fail(503);
                return false;
            }
            if (backend.mode() != Mode.HTTP && frontend.mode() != Mode.HTTP) {
                abort(); // a TCP frontend's HTTP stream routed to a TCP backend: closed, as by HAProxy
                return false;
            }
            if (backend.persistence() != null && backend.persistence().logged()) {
                log.cookieStatus('N', 'N');
            }
            if (backend.httpOptions().headerNames.refuses(request)) {
                log.error('P', 'R');
                fail(403);
                return false;
            }
            // (a listen's own rules ran as the frontend's)
            if (backend != frontend.self() && !backend.tcpRules().acceptContent(this)) {
                refused(false);
                return false;
            }
        }
        // (the backend's option waits whether it has rules of its own or not: the wait counts in TR, before Tw)
        if (!bufferedFor(backend.httpOptions(), backend.timeouts())) {
            return false;
        }
        if (backend.rules() != frontend.rules()) {
            if (!requestRulesDone(backend.rules())) {
                return false;
            }
            flushEarlyHints();
        }
        if (backend.statsPage() != frontend.statsPage() && servedStats(backend.statsPage())) {
            return false;
        }
        if (backend.persistence() != null) {
            persist = backend.persistence().request(this, request);
            log.cookieStatus(persist.requestState(), persist.responseState());
        }
        return true;
    }

    /**
     * With {@code option http-buffer-request}, a proxy's request rules see the body (req.body...): they run once it
     * is all in or fills the buffer, as HAProxy's body analyser runs before them; false while it waits. The wait
     * has the proxy's {@code timeout http-request} (else {@code timeout client}), then 408.
     */
    private boolean bufferedFor(HttpOptions options, Timeouts timeouts) {
        if (!options.bufferRequest) {
            return true;
        }
        long t = timeouts.httpRequest;
        if (bodyIn(request, t > 0 ? t : frontend.timeouts().client, 0)) {
            log.bodyAwaited();
            return true;
        }
        armTimer(); // (for the wait's deadline)
        return false;
    }

    /** A proxy's stats page answers the requests for its URI, after the proxy's http-request rules (as in HAProxy). */
    private boolean servedStats(StatsPage page) {
        if (page == null || !page.matches(request)) {
            return false;
        }
        page.serve(this, log, page == frontend.statsPage());
        return true;
    }

    /** Runs {@code rules}' request rules from the one that waited, if any; false when they answered or wait. */
    private boolean requestRulesDone(HttpRules rules) {
        return rulesDone(rules.request(), request);
    }

    /** Runs {@code list} over {@code msg} from the rule that waited, if any; false when a rule answered or waits. */
    private boolean rulesDone(HttpRule[] list, HttpHead msg) {
        int r = HttpRule.run(list, ruleIndex, this, msg);
        if (r == HttpRule.ANSWERED) {
            return false;
        }
        if (r < list.length) {
            ruleIndex = r;
            armTimer();
            return false;
        }
        ruleIndex = 0;
        return true;
    }

    /** The request goes to a server of the backend: its head first, then its body as it comes. */
    private void forwardRequest() {
        serverNames = front.serverNames(backend);
        ForwardingHeaders.add(request, frontend.httpOptions(), backend.httpOptions(), source(), destination());
        // The rules are done: hop-by-hop fields go (a Connection field they set may ask to close this hop); say what
        // this hop wants when the version's default differs. An upgrade keeps the client's Connection in place, as
        // HAProxy.
        serverCloseAsked = HopByHop.strip(request, upgradeRequested).close();
        if (!upgradeRequested) {
            if (serverCloseAsked || !frontend.keepAliveServer(backend) && !backend.httpOptions().pretendKeepAlive) {
                if (request.version() >= 11) { // (HTTP/1.0 closes unless it says otherwise)
                    request.headers().add("connection", "close");
                }
            } else if (request.version() < 11) {
                request.headers().add("connection", "keep-alive");
            }
        }
        frontend.logger().addUniqueIdHeader(this, request);
        accepted = Negotiation.select(request, frontend.compression(), backend.compression());
        bodyWait = BodyWait.of(request, frontend, backend, front.limits().maxHead());
        if (bodyWait != null) {
            continueIfExpected();
        }
        ByteBuf head = client.alloc().buffer(256 + request.headers().encodedLength());
        H1Encoder.writeHead(request, head, serverNames);
        if (RetryOn.layer7(backend.balance().retryOn) && !l7RetryDisabled) {
            replay = new RequestReplay(front.limits().bufsize());
            replay.keep(head);
        }
        pending.add(head);
        if (bodyWait == null || bodyWait.add(head.readableBytes())) {
            bodyWaitOver();
        }
        armTimer();
    }

    /** The whole request was read (a wait-for-body rule may hold its end). */
    private boolean requestRead() {
        return requestEnded || request.bodyLength() == HttpHead.NO_BODY || held != null && held.ended();
    }

    /** What came of the request while a wait-for-body rule held it goes on, as if it arrived now. */
    private void replayHeld() {
        HeldBody h = held;
        held = null;
        h.replay(this::requestData, this::requestTrailers, this::requestEnd);
    }

    @Override
    public boolean bodyIn(HttpHead msg, long millis, long atLeast) {
        if (msg != request) {
            if (heldResponse == null) {
                heldResponse = new HeldBody(client.alloc(), front.limits().maxHead());
            }
            return buffered(heldResponse, msg, msg.bodyLength() != HttpHead.NO_BODY && !request.isHead(), millis, atLeast);
        }
        if (held == null) {
            held = new HeldBody(client.alloc(), front.limits().maxHead());
        }
        boolean waited = held.waiting();
        if (buffered(held, request, request.bodyLength() != HttpHead.NO_BODY, millis, atLeast)) {
            return true;
        }
        if (!waited) {
            continueIfExpected();
        }
        return false;
    }

    /**
     * True once {@code body} holds what the wait wants: it then shares the buffer with {@code msg}'s head. A request's
     * TR goes on during the wait, as HAProxy's.
     */
    private boolean buffered(HeldBody body, HttpHead msg, boolean hasBody, long millis, long atLeast) {
        boolean waited = body.waiting();
        if (!body.satisfied(hasBody, millis, atLeast)) {
            if (msg == request) {
                log.awaitingBody();
            }
            return false;
        }
        if (msg == request && waited) {
            log.bodyAwaited();
        }
        msg.bodyBuffered(body.bytes(), front.limits().maxHead());
        return true;
    }

    /** Tells the client to send its body when it waits for that (Expect: 100-continue), as HAProxy does when it waits for the body. */
    private void continueIfExpected() {
        ByteBuf go = BodyWait.answerToExpect(request);
        if (go != null) {
            log.bytesOut(BodyWait.CONTINUE_HTX_DATA);
            client.writeAndFlush(go, client.voidPromise());
        }
    }

    @Override
    public void resumeWhen(CompletionStage<?> done) {
        if (resumption == null) {
            resumption = new Resumption();
        }
        resumption.when(done, client.eventLoop(), () -> !finished, this::continueRequest);
    }

    @Override
    public CompletionStage<?> resumed() {
        return resumption == null ? null : resumption.resumed();
    }

    @Override
    public long requestNumber() {
        return number;
    }

    @Override
    public ByteBuf requestBody() {
        return held == null ? null : held.body();
    }

    /**
     * As HAProxy's buffer at the request rules: the head as the HTTP/1 mux made it (Connection fields cleaned), as the
     * rules left it, and the body bytes a wait-for-body rule holds. A body no rule waits for goes on as it arrives: the
     * part of it HAProxy would still hold, having read it along with the head, is not counted (docs/differences.md).
     */
    @Override
    public long requestHtxData() {
        long n = HopByHop.receivedData(request);
        if (held != null) {
            n += held.bytes();
            if (held.ended() && request.bodyLength() == HttpHead.CHUNKED) {
                n += HttpHead.HTX_END + (held.trailers() == null ? 0 : held.trailers().htxData());
            }
        }
        return n;
    }

    @Override
    public ByteBuf responseBody() {
        return heldResponse == null ? null : heldResponse.body();
    }

    /** The wait for the request's body is over, or there was none: the server is connected. */
    private void bodyWaitOver() {
        bodyWait = null;
        connect();
    }

    // --- request side, called by the front connection --------------------------------------

    /** Body bytes from the client; this stream owns {@code data}. */
    public void requestData(ByteBuf data) {
        lastClientActivity = LoopClock.nanoTime();
        if (answerAfterBody != null) {
            keepBody(data);
            return;
        }
        if (held != null && held.waiting()) {
            held.hold(data);
            continueRequest();
            return;
        }
        if (bodyWait != null && bodyWait.add(data.readableBytes())) {
            bodyWaitOver();
        }
        if (request.bodyLength() == HttpHead.CHUNKED) {
            toServer(H1Encoder.chunkHeader(data.readableBytes(), client.alloc()));
            toServer(data);
            toServer(H1Encoder.crlf());
        } else {
            toServer(data);
        }
    }

    public void requestTrailers(HttpHeaders trailers) {
        lastClientActivity = LoopClock.nanoTime();
        if (held != null && held.waiting()) {
            held.holdTrailers(trailers);
            return;
        }
        trailersSent = true;
        toServer(H1Encoder.lastChunk(trailers, client.alloc(), serverNames));
    }

    public void requestEnd() {
        if (answerAfterBody != null) {
            requestEnded = true;
            Function<byte[], Reply> answer = answerAfterBody;
            answerAfterBody = null;
            reply(answer.apply(body == null ? null : body.toByteArray()));
            return;
        }
        if (held != null && held.waiting()) {
            held.holdEnd();
            continueRequest();
            return;
        }
        requestEnded = true;
        if (bodyWait != null) {
            bodyWaitOver();
        }
        if (request.bodyLength() == HttpHead.CHUNKED && !trailersSent) {
            toServer(H1Encoder.lastChunk(null, client.alloc()));
        }
        flushToServer();
        maybeComplete();
    }

    /** True when the client must stop sending: the server connection cannot take more yet. */
    public boolean serverBusy() {
        return server == null ? bodyWait == null && pending.size() > 16 : !server.channel().isWritable();
    }

    private void toServer(ByteBuf b) {
        if (serverLeft || cache != null && cache.hit()) {
            b.release(); // answered from a cache, or by a server that left since: the request's body goes nowhere
            return;
        }
        if (replay != null) {
            replay.keep(b);
        }
        if (server != null && server.ready()) {
            lastServerActivity = LoopClock.nanoTime(); // (as HAProxy's, timeout server runs from the last bytes sent too)
            server.channel().write(b, server.channel().voidPromise());
        } else {
            pending.add(b);
        }
    }

    public void flushToServer() {
        if (server != null && server.ready()) {
            server.channel().flush();
        }
    }

    // --- server side ------------------------------------------------------------------------

    private void connect() {
        if (finished) {
            return;
        }
        if (ticket == null) {
            ticket = new Ticket(client.eventLoop(), this::slotGranted);
            ticket.priority(priority);
            log.enterBackend(backend, ticket);
        }
        if (ticket.server() == null && !assign()) {
            return;
        }
        target = ticket.server();
        if (avoid != null && target != avoid) {
            log.redispatch(backend, avoid);
            avoid = null; // counted once: a retry on the new server is no redispatch
            if (persist != null) {
                persist.movedAway();
            }
        }
        log.serverAssigned();
        if (target.spec().redirect != null && redirectedByServer()) {
            return;
        }
        log.connecting();
        targetAddress = null;
        reuseKey = reuseKey();
        if (!retriedOnNew) {
            H1ServerConnection idle = idleConnection();
            if (idle != null) {
                attach(idle);
                return;
            }
            if (!privateOnly() && ServerPool.current().takeOver(target, pick(), reuseKey, this::takenOver)) {
                return;
            }
        }
        open();
    }

    /**
     * Server {@code redir}: a GET or HEAD request with a path gets a 302 to the server's prefix followed by that path,
     * instead of going to the server, and the client connection closes (as HAProxy's forged response). False for the
     * other requests, which the server serves.
     */
    private boolean redirectedByServer() {
        AsciiString path = request.path();
        if (path.isEmpty() || !request.isHead() && !request.method().contentEquals("GET")) {
            return false;
        }
        HttpHeaders h = new HttpHeaders();
        h.add("cache-control", "no-cache");
        h.add("content-length", "0");
        h.add("location", target.spec().redirect + path);
        ResponseHead head = new ResponseHead(11, 302, new AsciiString("Found"), h);
        head.bodyLength(HttpHead.NO_BODY);
        clientWantsClose = true;
        reply(new Reply.Content(head, new byte[0]));
        return true;
    }

    /** An idle connection another loop handed over (null: it had none left), else a new one. */
    private void takenOver(Channel ch) {
        if (finished) {
            if (ch != null) {
                // The client went away meanwhile: the connection, idle still, goes to this loop's pool (or closes).
                EventLoops.resumeReading(ch);
                H1ServerConnection.of(ch).detach(true, target, null);
            }
        } else if (ch != null && ch.isActive()) {
            attach(H1ServerConnection.of(ch));
        } else {
            if (ch != null) {
                ch.close();
            }
            open();
        }
    }

    /** Opens a new connection to the target. */
    private void open() {
        lastServerChannel = null;
        attempts++;
        log.retries(attempts - 1);
        SocketAddress address = targetAddress();
        H1ServerConnection.connect(client, front.loops(), target, backend, address, front.limits()).addListener((ChannelFutureListener) f -> {
            H1ServerConnection conn = H1ServerConnection.of(f.channel());
            if (finished) {
                f.channel().close();
            } else if (f.isSuccess()) {
                ReuseKey.mark(f.channel(), reuseKey);
                sendProxyHeader(target, f.channel());
                if (target.transport() == null) {
                    attach(conn);
                    return;
                }
                // With TLS the connection is established once its handshake is done, as in HAProxy: a failed
                // handshake is a failed connection (redispatched or retried, then 503).
                target.transport().install(f.channel(), this, target.counters(), backend.counters()).addListener(h -> {
                    if (finished) {
                        f.channel().close();
                    } else if (h.isSuccess()) {
                        attach(conn);
                    } else {
                        lastServerChannel = f.channel(); // (bc_err: why it failed)
                        f.channel().close();
                        log.connectFailed(f.channel(), address);
                        connectFailed(h.cause());
                    }
                });
            } else {
                log.connectFailed(f.channel(), address);
                connectFailed(f.cause());
            }
        });
    }

    /** Redispatches or retries after a failed connection while {@code retries} allows, else answers 503. */
    private void connectFailed(Throwable cause) {
        boolean retry = attempts <= backend.retries() && (backend.balance().retryOn & RetryOn.CONN_FAILURE) != 0;
        if (retry && redispatch()) {
            connect();
        } else if (retry) {
            long delay = ConnError.connectTimedOut(cause) ? 0
                    : Math.min(1000, backend.timeouts().connect > 0 ? backend.timeouts().connect : 1000);
            client.eventLoop().schedule(this::connect, delay, TimeUnit.MILLISECONDS);
        } else {
            log.error(ConnError.connectTimedOut(cause) ? 's' : 'S', 'C');
            fail(503);
        }
    }

    /**
     * Leaves the server for another on this retry when {@code option redispatch} says so (never with
     * {@code force-persist}; on the retries its interval designates with a persistence cookie): the slot goes back
     * and the cookie no longer holds. False when the retry stays on the same server.
     */
    private boolean redispatch() {
        boolean direct = persist != null && persist.direct() != null;
        if (persist != null && persist.forced() || !backend.redispatch(target, attempts, direct)) {
            return false;
        }
        avoid = target;
        if (persist != null) {
            persist.redispatched();
        }
        ticket.release();
        return true;
    }

    /**
     * {@code retry-on}: sends the request again after the failure {@code kind} ({@link RetryOn} bit) of the server
     * connection, when the backend retries it, retries are left, and the request was kept: whole when first sent
     * and within a buffer, as HAProxy copies it. The connection is given up; the retry goes at once, to
     * another server when {@code option redispatch} says so. False when the failure stands.
     */
    private boolean retryLayer7(int kind) {
        attempts = Math.max(attempts, 1); // (an attempt on a reused connection counts too)
        if (replay == null || l7RetryDisabled || (backend.balance().retryOn & kind) == 0 || !replay.usable()
                || attempts > backend.retries()) {
            return false;
        }
        if (server != null) {
            server.detach(false, target, null);
            server = null;
        }
        serverReusable = true;
        retriedOnNew = true; // a new connection: each replay counts as a retry
        log.responseDropped();
        releasePending();
        replay.replayInto(pending);
        redispatch();
        lastServerActivity = LoopClock.nanoTime();
        connect();
        armTimer();
        return true;
    }

    /**
     * Asks the backend for a server slot: the last server of this client connection first with
     * {@code option prefer-last-server} (not for hashing algorithms), else the algorithm's choice. False
     * when the transaction waits in a queue or was answered.
     */
    private boolean assign() {
        Backend.Outcome outcome;
        if (persist != null && persist.direct() != null) {
            outcome = backend.assignTo(ticket, persist.direct());
        } else {
            Server last = front.lastServer();
            boolean bound = front.boundToServer();
            outcome = last != null && avoid == null && (backend.balance().preferLastServer || bound)
                    && !backend.balance().algorithm.hashed() ? backend.assignPreferred(ticket, last, bound) : null;
            if (outcome == null) {
                outcome = backend.assign(this, ticket, avoid);
            }
        }
        switch (outcome) {
            case ASSIGNED -> {
                return true;
            }
            case QUEUED -> {
                long t = backend.queueTimeout();
                queueDeadline = t > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(t) : 0;
                armTimer();
                return false;
            }
            case NO_SERVER -> log.error('S', 'C');
            case QUEUE_FULL -> log.error('S', 'Q');
        }
        fail(503);
        return false;
    }

    /** A queue gave this transaction a slot of {@code srv} (null: its server went down, choose again). */
    private void slotGranted(Server srv) {
        queueDeadline = 0;
        if (srv == null && persist != null && !persist.forced()) {
            persist.redispatched(); // its server went down: the algorithm chooses, as HAProxy's pendconn_redistribute()
        }
        if (finished) {
            ticket.release();
            return;
        }
        connect();
    }

    /** {@code timeout queue} expired before a slot came: 503, termination state sQ. */
    private void queueExpired() {
        queueDeadline = 0;
        if (ticket.cancel()) {
            log.serverAssigned(); // Tw ends here: HAProxy logs the time spent waiting
            log.error('s', 'Q');
            fail(503);
        }
    }

    /**
     * An idle connection to the target this request may use under {@code http-reuse}, or null: the client
     * connection's own first (private ones, a reuse too in HAProxy's counters), then one of this loop's pool.
     */
    private H1ServerConnection idleConnection() {
        H1ServerConnection own = front.takePrivateServer(target, reuseKey);
        if (own != null) {
            target.counters().increment(Counters.Count.REUSES);
            return own;
        }
        if (privateOnly()) {
            return null;
        }
        Channel ch = ServerPool.current().acquire(target, pick(), reuseKey);
        return ch == null ? null : H1ServerConnection.of(ch);
    }

    /**
     * What an idle connection must have been opened with for this request, or null (any of the target's): HAProxy keys
     * the connections of a server that follows the destination by that address, those named by an {@code sni}
     * expression by that name, and those of a send-proxy server by their PROXY header (its conn hash).
     */
    private ReuseKey reuseKey() {
        ServerTransport t = target.transport();
        boolean named = t != null && t.namesPerStream();
        ByteBuf header = proxyHeader(target, UnpooledByteBufAllocator.DEFAULT);
        if (!named && !target.followsDestination() && header == null) {
            return null;
        }
        String proxy = null;
        if (header != null) {
            proxy = header.toString(StandardCharsets.ISO_8859_1);
            header.release();
        }
        return new ReuseKey(target.followsDestination() ? targetAddress() : null, named ? t.nameFor(this) : null, proxy);
    }

    /** Where the target is reached for this stream: made when first asked (a reused connection needs none). */
    private SocketAddress targetAddress() {
        if (targetAddress == null) {
            targetAddress = target.target(destination());
        }
        return targetAddress;
    }

    /**
     * Connections to the target are never shared: {@code http-reuse never}, or the backend's dispatch or transparent
     * address (HAProxy's connections to no server are private).
     */
    private boolean privateOnly() {
        return backend.reuseMode() == ReuseMode.NEVER || backend.dispatches(target);
    }

    /** Which idle connections this request may take: a request the client or retry-on could send again, any. */
    private Pick pick() {
        int retrySafe = RetryOn.CONN_FAILURE | RetryOn.EMPTY_RESPONSE | RetryOn.RESPONSE_TIMEOUT;
        return backend.reuseMode().pick(!front.firstRequest() || (backend.balance().retryOn & retrySafe) == retrySafe);
    }

    private void attach(H1ServerConnection conn) {
        if (replay != null && !requestRead()) {
            // As HAProxy, a request is kept for a replay only when it is whole as it is first sent.
            replay.release();
            replay = null;
        }
        server = conn;
        lastServerChannel = conn.channel();
        log.connected(conn.channel());
        nameServer();
        conn.attach(this, request);
        lastServerActivity = LoopClock.nanoTime();
        ByteBuf b;
        while ((b = pending.poll()) != null) {
            conn.channel().write(b, conn.channel().voidPromise());
        }
        conn.channel().flush();
        front.resumeIfPaused();
        responseContentRules();
    }

    /**
     * {@code http-send-name-header}: the request head waiting first in {@link #pending} is written again with the field
     * naming the server it goes to now (a retry or a redispatch may have changed it), as HAProxy does at the last moment.
     */
    private void nameServer() {
        String field = backend.httpOptions().sendNameHeader;
        if (field == null || pending.isEmpty()) {
            return;
        }
        pending.poll().release();
        request.headers().removeAll(field);
        request.headers().add(field, target.name());
        ByteBuf head = client.alloc().buffer(256 + request.headers().encodedLength());
        H1Encoder.writeHead(request, head, serverNames);
        pending.addFirst(head);
    }

    /**
     * The backend's tcp-response content rules run once the server connection is established, before the response
     * (as in HAProxy, whose payload fetches see nothing of an HTTP message): a reject closes the client connection
     * without an answer (PD), a close ends the server connection (then 502).
     */
    private void responseContentRules() {
        if (!backend.tcpRules().hasResponseRules()) {
            return;
        }
        Verdict v;
        responseSide = true;
        try {
            v = backend.tcpRules().inspectResponse(this, () -> false);
        } finally {
            responseSide = false;
        }
        if (v == Verdict.DONE && !finished) {
            log.error('P', 'D');
            abort();
        }
    }

    @Override
    public void closeServer() {
        if (server != null) {
            server.channel().close();
        }
    }

    @Override
    public void silentDrop() {
        drop(true);
    }

    public void responseHead(ResponseHead head) {
        if (head.status() == 101 && (!upgradeRequested || !HopByHop.saysUpgrade(head))) {
            // Switching protocols that the request did not offer, or without saying so in Connection: an invalid
            // response, as HAProxy judges it.
            server.channel().close();
            serverFailed(new H1Exception(502, "101 to a request without Upgrade", 0));
            return;
        }
        if (!head.isInterim() && retryLayer7(RetryOn.status(head.status()))) {
            return;
        }
        if (replay != null && !head.isInterim()) {
            replay.release(); // a final response came: no more retry
            replay = null;
        }
        log.responseHead(head);
        lastServerActivity = LoopClock.nanoTime();
        tunnel = head.status() == 101 && upgradeRequested || request.isConnect() && head.status() / 100 == 2;
        if (server != null && PrivateAuth.asked(head)) {
            server.makePrivate();
        }
        HopByHop.Tokens conn = HopByHop.clean(head);
        if (conn.close() || head.version() < 11 && !conn.keepAlive()) {
            serverReusable = false;
        }
        if (tunnel || head.isInterim()) {
            HopByHop.strip(head, tunnel); // (no rules for these)
        }
        if (tunnel) {
            serverReusable = false;
            response = head;
            ByteBuf out = client.alloc().buffer(128 + head.headers().encodedLength());
            H1Encoder.writeHead(head, out, front.clientNames());
            client.write(out, client.voidPromise());
            return;
        }
        if (head.isInterim()) {
            ByteBuf out = client.alloc().buffer(128 + head.headers().encodedLength());
            H1Encoder.writeHead(head, out, front.clientNames());
            client.writeAndFlush(out, client.voidPromise());
            return;
        }
        response = head;
        cacheableCookie = backend.httpOptions().checkCache && CacheableCookie.leaks(request, head);
        // As HAProxy, the server's response decides, before the response rules (which see res.comp).
        if (accepted != null && Negotiation.qualifies(request, head, frontend.compression(), backend.compression())) {
            compressed = accepted;
        }
        continueResponse();
    }

    /**
     * Runs the response rules from where they stand (an http-response wait-for-body rule may hold them: this runs again
     * as the body arrives), then sends the head, and what came of the body meanwhile.
     */
    private void continueResponse() {
        if (!responseRulesDone(response)) {
            return;
        }
        sendResponseHead(response);
        if (heldResponse != null) {
            HeldBody h = heldResponse;
            heldResponse = null;
            h.replay(this::responseData, this::responseTrailers, this::responseEnd);
        }
    }

    /** The response head goes to the client, framed for it. */
    private void sendResponseHead(ResponseHead head) {
        long serverLength = head.bodyLength();
        // The server answered another method with a body the client does not expect: only the head goes.
        bodyDropped = clientHead && !request.isHead();
        chunkedToClient = serverLength == HttpHead.CHUNKED && !bodyDropped;
        // The rules are done: hop-by-hop fields go; a Connection field they set saying close ends the client's connection.
        boolean closeAsked = HopByHop.strip(head).close();
        boolean keepClient = !closeAsked && !clientWantsClose && frontend.keepAlive() && !front.stopping();
        if (!bodyDropped && (head.bodyLength() == HttpHead.UNTIL_CLOSE || head.bodyLength() == HttpHead.CHUNKED && request.version() < 11)) {
            closeDelimitedToClient = head.bodyLength() == HttpHead.UNTIL_CLOSE || request.version() < 11;
            keepClient = keepClient && !closeDelimitedToClient;
            if (closeDelimitedToClient && head.bodyLength() == HttpHead.CHUNKED) {
                // An HTTP/1.0 client gets the data without the chunks, delimited by the close (for the
                // encoder only: the server's body is still chunked).
                head.bodyLength(HttpHead.UNTIL_CLOSE);
                chunkedToClient = false;
            }
        }
        this.keepClient = keepClient;
        if (compressed != null && !bodyDropped) {
            Negotiation.rewrite(head, compressed);
            encoder = Encoder.of(compressed, Compression.level(frontend.compression(), backend.compression()));
            head.bodyLength(HttpHead.CHUNKED);
            chunkedToClient = true;
        }
        if (!keepClient) {
            if (head.version() >= 11) {
                // (an HTTP/1.0 response closes by default: HAProxy says nothing more)
                head.headers().set("connection", "close");
            }
        } else if (request.version() < 11 || head.version() < 11) {
            // An HTTP/1.0 response is forwarded as such (as HAProxy): it must say that the connection stays.
            head.headers().set("connection", "keep-alive");
        }
        ByteBuf out = client.alloc().buffer(128 + head.headers().encodedLength());
        H1Encoder.writeHead(head, out, front.clientNames());
        // The server's parser reads the body length after this call: it must see the server's framing.
        head.bodyLength(serverLength);
        client.write(out, client.voidPromise());
        frontend.logger().responseHeadSent(this);
    }

    public void responseData(ByteBuf data) {
        if (finished) {
            // A rule answered instead of the server: the rest of its response goes nowhere.
            data.release();
            return;
        }
        lastServerActivity = LoopClock.nanoTime();
        if (heldResponse != null && heldResponse.waiting()) {
            heldResponse.hold(data);
            continueResponse();
            return;
        }
        if (cache != null) {
            cache.responseData(data, client.alloc());
        }
        if (bodyDropped) {
            data.release();
            return;
        }
        if (encoder != null) {
            data = encoder.encode(data, client.alloc());
            if (data == null) {
                return;
            }
        }
        if (chunkedToClient) {
            writeChunk(data);
        } else {
            client.write(data, client.voidPromise());
        }
    }

    private void writeChunk(ByteBuf data) {
        client.write(H1Encoder.chunkHeader(data.readableBytes(), client.alloc()), client.voidPromise());
        client.write(data, client.voidPromise());
        client.write(H1Encoder.crlf(), client.voidPromise());
    }

    /** The compressed body ends before the last chunk. */
    private void finishCompression() {
        Encoder e = encoder;
        if (e != null) {
            encoder = null;
            ByteBuf tail = e.finish(client.alloc());
            if (tail != null) {
                writeChunk(tail);
            }
        }
    }

    public void responseTrailers(HttpHeaders trailers) {
        if (heldResponse != null && heldResponse.waiting()) {
            heldResponse.holdTrailers(trailers);
            return;
        }
        if (cache != null) {
            cache.cancelStore(); // (trailers are not stored: docs/differences.md)
        }
        if (chunkedToClient && !finished) {
            responseTrailersSent = true;
            finishCompression();
            client.write(H1Encoder.lastChunk(trailers, client.alloc(), front.clientNames()), client.voidPromise());
        }
    }

    public void responseEnd() {
        if (finished) {
            return;
        }
        if (heldResponse != null && heldResponse.waiting()) {
            heldResponse.holdEnd();
            continueResponse();
            return;
        }
        if (tunnel) {
            becomeTunnel();
            return;
        }
        responseEnded = true;
        if (cache != null) {
            cache.responseEnd();
        }
        if (chunkedToClient && !responseTrailersSent) {
            finishCompression();
            client.write(H1Encoder.lastChunk(null, client.alloc()), client.voidPromise());
        }
        if (!maybeComplete()) {
            client.flush();
        }
    }

    /**
     * After a 101 or a 2xx to CONNECT, the two connections carry bytes as they come, under
     * {@code timeout tunnel}: the HTTP handlers leave, with what each side already sent past the exchange.
     */
    private void becomeTunnel() {
        unregister(); // the tunnel's session is listed instead
        finished = true;
        cancelTimer();
        H1ServerConnection conn = server;
        server = null;
        ByteBuf fromServer = conn.leaveForTunnel();
        ByteBuf fromClient = front.leaveForTunnel();
        client.flush();
        TcpSession.tunnel(client, conn.channel(), frontend, backend, front.loops(), fromClient, fromServer, this, tunnelTimeoutOverride);
    }

    /** The server read batch ended: push what was written to the client. */
    public void flushToClient() {
        client.flush();
    }

    /** True when the server must stop sending: the client cannot take more yet. */
    public boolean clientBusy() {
        return !client.isWritable();
    }

    /** The client's writability changed: pause or resume reading the server. */
    public void clientWritable(boolean writable) {
        lastClientActivity = LoopClock.nanoTime();
        if (writable && server != null) {
            server.resumeReading();
        }
    }

    /** The server connection can take request bytes again. */
    public void serverWritable() {
        lastServerActivity = LoopClock.nanoTime();
        if (!requestEnded) {
            lastClientActivity = lastServerActivity; // its timeout starts again as it is read again
        }
        front.resumeIfPaused();
    }

    public boolean responseStarted() {
        return response != null;
    }

    /** The server connection failed or closed before the response ended. */
    public void serverFailed(H1Exception cause) {
        serverFailed(cause, cause != null ? 'P' : 'S');
    }

    /** The server closed its connection inside a response ({@code cause} says where): the server aborted (SH, SD). */
    public void serverTruncated(H1Exception cause) {
        serverFailed(cause, 'S');
    }

    private void serverFailed(H1Exception cause, char state) {
        serverReusable = false;
        if (finished) {
            return;
        }
        if (responseEnded && !requestEnded) {
            // The server left after its whole response, the request's body still coming (an upload it refused, then
            // closed): as HAProxy, the rest of the body is read and dropped and the transaction ends as any other
            // (maybeComplete), then the client connection closes as HAProxy's does; closing now would reset a client
            // still sending. timeout client bounds the wait.
            serverLeft = true;
            keepClient = false;
            if (server != null) {
                server.detach(false, target, null);
                server = null;
            }
            dropPending();
            front.resumeIfPaused(); // (paused for the server, which can no longer say it takes more)
            return;
        }
        if (response == null && retryLayer7(cause == null ? RetryOn.EMPTY_RESPONSE : RetryOn.JUNK_RESPONSE)) {
            return;
        }
        if (response == null && cause == null && !front.firstRequest()) {
            // The server closed without a byte of response to a request that is not the client connection's first
            // (a kept or reused connection it closed meanwhile, unless retry-on empty-response sent it again): as
            // HAProxy's abort_keep_alive, the client connection is closed without an answer, a log line nor an error
            // counted, so that the client retries as it does when a keep-alive connection races a close.
            log.silence();
            abort();
            return;
        }
        if (state == 'P') {
            log.badResponse();
        } else {
            log.error(state);
        }
        if (response == null) {
            fail(cause != null ? cause.status() : 502);
        } else {
            abort();
        }
    }

    /** The server's response timed out. */
    private void serverTimeout() {
        if (response == null && !requestEnded && server != null && !server.channel().isWritable()) {
            // The server stopped taking the request's body: HAProxy's write timeout in the data phase (sD), both
            // connections closed without an answer.
            log.error('s', 'D');
            serverReusable = false;
            abort();
            return;
        }
        if (response == null && retryLayer7(RetryOn.RESPONSE_TIMEOUT)) {
            return;
        }
        log.error('s');
        serverReusable = false;
        if (response == null) {
            fail(504);
        } else {
            abort();
        }
    }

    // --- end of the transaction ----------------------------------------------------------------

    /**
     * Ends the transaction once both messages have ended: the server connection goes back to the pool (or is closed),
     * then the end of the response is flushed to the client, then the stream is logged and the client connection
     * waits for its next request. The pool first: a client that sends its next request on another connection as
     * soon as it has the response, served by another loop, must find the server connection idle there to take it
     * over, not in use. True when it ended (the client was flushed).
     */
    private boolean maybeComplete() {
        if (finished || !responseEnded) {
            return false;
        }
        if (!requestEnded) {
            // The server answered before the request body was complete (an upload refused at once): as
            // HAProxy does, the rest of the body still goes to the server, then the transaction ends as
            // any other (requestEnd() comes back here). Closing now would reset a client still sending,
            // which can destroy the response before it is read. timeout client bounds the wait.
            return false;
        }
        finished = true;
        cancelTimer();
        H1ServerConnection conn = server;
        server = null;
        boolean keep = keepClient && !closeDelimitedToClient;
        front.lastServer(conn != null && serverReusable && !serverCloseAsked && keep ? target : null);
        if (conn != null) {
            boolean reusable = serverReusable && !serverCloseAsked && frontend.keepAliveServer(backend);
            if (privateOnly() || conn.isPrivate()) {
                // Never shared: the connection stays with this client connection for its next requests.
                conn.detach(false, target, reusable && keep ? front : null);
            } else {
                conn.detach(reusable, target, null);
            }
        }
        client.flush();
        front.streamDone(this, keep);
        return true;
    }

    /**
     * Answers with the proxy's response for {@code status} (nothing of the server's response was sent).
     * As in HAProxy, the client connection stays open when it could after any response: the client
     * wants it, the message has a known length and does not ask to close, and the request was read.
     */
    private void fail(int status) {
        if (answerAfterParse == 0 && !requestEnded && request.bodyLength() != HttpHead.NO_BODY && front.parsing()) {
            // As HAProxy, the connection stays open when the rest of the request came with its head.
            answerAfterParse = status;
            return;
        }
        answerError(status, null, null);
    }

    /**
     * Answers with the proxy's reply for {@code status} ({@link #sendError}), with one more header when {@code header}
     * is not null: an {@code http-error} with log-format parts is made for this transaction, as the rules' replies are.
     */
    private void answerError(int status, String header, String value) {
        LiveReply live = constReply ? null
                : backend != null ? backend.errors().live(status, frontend.errors()) : frontend.errors().live(status, null);
        if (live == null) {
            ErrorMessage m = errorMessage(status);
            sendError(status, header == null ? m : m.withHeader(header, value));
            return;
        }
        LiveReply.Built b = live.build(this);
        if (header != null) {
            b.head().headers().add(header, value);
        }
        log.status(status);
        sendReply(b.head(), b.body(), true, 0, false);
    }

    /** The proxy's message for {@code status}: the backend's errorfile, else the frontend's, else HAProxy's page. */
    private ErrorMessage errorMessage(int status) {
        return backend != null ? backend.errors().message(status, frontend.errors()) : frontend.errors().message(status);
    }

    /** Answers with an error message (see {@link #fail}); the log shows {@code status}, whatever the message's status line says. */
    private void sendError(int status, ErrorMessage m) {
        flushEarlyHints();
        log.status(status);
        if (!m.isEmpty() && !constReply && hasAfterResponseRules()) {
            // The rules may change it: it goes out as any response the proxy builds.
            sendReply(m.toHead(), m.body(), m.lengthKnown() && !m.asksClose(), m.droppedData(), false);
            return;
        }
        endExchange();
        if (m.isEmpty()) {
            front.closeAfterFlush();
            return;
        }
        boolean requestRead = requestRead();
        boolean keep = requestRead && !clientWantsClose && frontend.keepAlive() && m.lengthKnown() && !m.asksClose();
        ErrorMessage.Connection form = keep
                ? (m.version11() && request.version() >= 11 ? ErrorMessage.Connection.NONE : ErrorMessage.Connection.KEEP_ALIVE)
                : (m.version11() ? ErrorMessage.Connection.CLOSE : ErrorMessage.Connection.NONE);
        ByteBuf wire = front.clientNames().adjusted(m.wire(form), client.alloc());
        if (clientHead) {
            wire = wire.slice(0, wire.readableBytes() - m.bodyLength());
        }
        log.bytesOut(m.htxData(request.isHead()));
        client.write(wire, client.voidPromise());
        front.streamDone(this, keep);
    }

    // --- answers of the proxy's own ------------------------------------------------------------

    @Override
    public void reply(Reply r) {
        log.error(r.refused() ? 'P' : 'L'); // refused, or answered by the proxy itself
        switch (r) {
            case Reply.Error e -> answerError(e.status(), e.header(), e.value());
            case Reply.Message m -> sendError(m.status(), m.message());
            case Reply.Content c -> sendReply(c.head(), c.body(), true, 0, c.streamed());
        }
    }

    /**
     * Sends a response built by the proxy (a rule's, or an error page the after-response rules may
     * change), with the connection handling of {@link #fail}: the client connection stays when it can.
     *
     * @param delimited the body's length is known and the message does not ask to close
     * @param dropped   HTX data of the message that {@code head} has not (see {@link ErrorMessage#droppedData()})
     * @param streamed  see {@link Reply.Content#streamed()}
     */
    private void sendReply(ResponseHead head, byte[] body, boolean delimited, int dropped, boolean streamed) {
        flushEarlyHints();
        endExchange();
        response = head;
        if (streamed) {
            head.bodyBuffered(body.length, front.limits().maxHead());
        } else {
            replyBodyHtx = body.length == 0 ? 0 : HttpHead.HTX_BLOCK + body.length;
        }
        boolean passed = afterResponseRulesPass(head);
        replyBodyHtx = 0;
        if (!passed) {
            replaceWithInternalError(head);
            return;
        }
        log.status(head.status()); // as an http-after-response set-status left it
        // %B: the HTX data as the after-response rules left it (HAProxy counts it then), before HTTP/1's Connection.
        log.bytesOut(head.htxData() + dropped + (request.isHead() ? 0 : body.length));
        boolean requestRead = requestRead();
        boolean closeAsked = HopByHop.strip(head).close();
        boolean keep = delimited && !closeAsked && requestRead && !clientWantsClose && frontend.keepAlive() && !front.stopping();
        if (!keep) {
            if (head.version() >= 11) { // (an HTTP/1.0 answer, from an errorfile, closes without saying so)
                head.headers().add("connection", "close");
            }
        } else if (request.version() < 11 || head.version() < 11) {
            head.headers().add("connection", "keep-alive");
        }
        ByteBuf out = client.alloc().buffer(128 + head.headers().encodedLength() + body.length);
        H1Encoder.writeHead(head, out);
        if (!clientHead && head.bodyLength() == HttpHead.CHUNKED) {
            H1Encoder.writeChunkedBody(body, out);
        } else if (!clientHead) {
            out.writeBytes(body);
        }
        client.write(out, client.voidPromise());
        front.streamDone(this, keep);
    }

    @Override
    public void replyAfterBody(Function<byte[], Reply> answer) {
        body = new ByteArrayOutputStream();
        if (held != null) {
            // A wait-for-body rule kept what came so far: it is the start of the body.
            ByteBuf kept = held.takeBody();
            boolean ended = held.ended();
            held.release();
            held = null;
            if (kept != null) {
                keepBody(kept);
            }
            requestEnded |= ended;
        }
        if (requestEnded || request.bodyLength() == HttpHead.NO_BODY) {
            reply(answer.apply(body == null ? null : body.toByteArray()));
            return;
        }
        answerAfterBody = answer;
        continueIfExpected();
        armTimer();
    }

    /** Keeps body bytes for {@link #replyAfterBody} while they fit in a buffer; past that, none (the answer gets null). */
    private void keepBody(ByteBuf data) {
        if (body != null && body.size() + data.readableBytes() <= front.limits().maxHead()) {
            body.writeBytes(ByteBufUtil.getBytes(data));
        } else {
            body = null;
        }
        data.release();
    }

    @Override
    public void tarpit(Reply r) {
        Timeouts t = frontend.timeouts();
        long delay = t.tarpit > 0 ? t.tarpit : t.connect;
        tarpitReply = r;
        tarpitEnd = client.eventLoop().schedule(this::endTarpit, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * The tarpit ends at {@code timeout tarpit}, or earlier when the client connection closes: either way the
     * transaction is answered and logged as tarpitted (PT, the time held as Tw), as HAProxy's tarpit does.
     */
    private void endTarpit() {
        Reply r = tarpitReply;
        if (r == null || finished) {
            return;
        }
        tarpitReply = null;
        tarpitEnd.cancel(false);
        log.tarpitted();
        reply(r);
    }

    @Override
    public void drop(boolean reset) {
        log.error('P', 'R'); // refused by a rule, as HAProxy logs reject and silent-drop
        endExchange();
        if (reset) {
            SilentDrop.close(client);
        } else {
            client.close();
        }
    }

    @Override
    public void serverTimeout(long millis) {
        serverTimeoutOverride = millis;
    }

    @Override
    public void tunnelTimeout(long millis) {
        tunnelTimeoutOverride = millis;
    }

    /**
     * HAProxy's stream takes its backend's timeouts when the server connection is set up: before that, only
     * what set-timeout gave (else 0).
     */
    @Override
    public long currentTimeout(boolean tunnel) {
        long override = tunnel ? tunnelTimeoutOverride : serverTimeoutOverride;
        if (override >= 0) {
            return override;
        }
        Channel server = backChannel();
        return server == null || backend == null ? 0 : tunnel ? backend.timeouts().tunnel : backend.timeouts().server;
    }

    private long serverTimeoutMillis() {
        return serverTimeoutOverride >= 0 ? serverTimeoutOverride : backend == null ? 0 : backend.timeouts().server;
    }

    @Override
    public void disableL7Retry() {
        l7RetryDisabled = true;
    }

    @Override
    public boolean fits(HttpHead msg, int growth) {
        return msg.htxSize() + msg.bodyHtx() + growth + (msg == response ? replyBodyHtx : 0) <= front.limits().bufsize();
    }

    @Override
    public Verdict rewriteFailed() {
        // Counted where HAProxy counts it: the frontend and its listener, the backend once chosen, the server once known.
        frontend.counters().increment(Counters.Count.FAILED_REWRITES);
        Listener listener = Listener.of(client);
        if (listener != null && listener.counters() != null) {
            listener.counters().increment(Counters.Count.FAILED_REWRITES);
        }
        if (backend != null) {
            backend.counters().increment(Counters.Count.FAILED_REWRITES);
        }
        if (target != null) {
            target.counters().increment(Counters.Count.FAILED_REWRITES);
        }
        return softRewrites ? Verdict.CONTINUE : internalError();
    }

    @Override
    public Verdict internalError() {
        log.internalError();
        if (afterResponse) {
            afterResponseFailed = true; // the rules stop; whoever runs them replaces the response
        } else {
            reply(new Reply.Error(500));
        }
        return Verdict.DONE;
    }

    @Override
    public void softRewrites(boolean soft) {
        softRewrites = soft;
    }

    @Override
    public void earlyHint(String name, String value) {
        if (earlyHints == null) {
            earlyHints = new HttpHeaders();
        }
        earlyHints.add(name, value);
    }

    /** Sends the 103 Early Hints response the rules built, to HTTP/1.1 clients (HTTP/1.0 has no interim responses). */
    private void flushEarlyHints() {
        if (earlyHints == null) {
            return;
        }
        if (request.version() >= 11) {
            ResponseHead hints = new ResponseHead(11, 103, new AsciiString("Early Hints"), earlyHints);
            log.bytesOut(hints.htxData());
            ByteBuf out = client.alloc().buffer(64 + earlyHints.encodedLength());
            H1Encoder.writeHead(hints, out);
            client.writeAndFlush(out, client.voidPromise());
        }
        earlyHints = null;
    }

    /** The front connection's parser has passed the bytes it had: an answer that waited for them goes. */
    public void parsed() {
        if (answerAfterParse != 0 && !finished) {
            fail(answerAfterParse);
        }
    }

    /** The transaction ends here: no more timer, pending request bytes or server connection. */
    private void endExchange() {
        finished = true;
        if (ticket != null) {
            ticket.cancel(); // no longer waits in a queue (a slot it holds goes back when the log ends)
        }
        serverReusable = false;
        cancelTimer();
        releasePending();
        if (txnVars != null) {
            txnVars.release(); // (tune.vars accounting: the session's scopes no longer hold the transaction's variables)
        }
        if (encoder != null) {
            encoder.close();
            encoder = null;
        }
        if (cache != null) {
            cache.release();
        }
        if (server != null) {
            server.channel().close();
            server = null;
        }
    }

    /**
     * Runs the http-response rules from where they stand, backend first, then the http-after-response rules; false
     * when a rule answered or waits.
     */
    private boolean responseRulesDone(ResponseHead head) {
        HttpRules be = backend.rules();
        HttpRules fe = frontend.rules();
        log.responseKnown(this);
        responseSide = true;
        try {
            if (!backendResponseRulesDone) {
                if (!rulesDone(be.response(), head)) {
                    return false;
                }
                backendResponseRulesDone = true;
            }
            if (fe != be && !rulesDone(fe.response(), head)) {
                return false;
            }
        } finally {
            responseSide = false;
        }
        if (cacheableCookie) {
            backend.serverGroup().events().responseAlert("Blocking cacheable cookie in response from instance " + backend.name()
                    + ", server " + (target != null ? target.name() : "<dispatch>") + ".");
            reply(new Reply.Error(502)); // as http-response deny: PH in the log
            return false;
        }
        if (persist != null) {
            backend.persistence().response(persist, head, target);
            log.cookieStatus(persist.requestState(), persist.responseState());
        }
        if (!afterResponseRulesPass(head)) {
            replaceWithInternalError(head);
            return false;
        }
        return true;
    }

    private boolean hasAfterResponseRules() {
        return frontend.rules().afterResponse().length > 0 || backend != null && backend.rules().afterResponse().length > 0;
    }

    /** Runs the http-after-response rules on {@code head}; false when a rewrite failed in strict mode. */
    private boolean afterResponseRulesPass(ResponseHead head) {
        HttpRules fe = frontend.rules();
        HttpRules be = backend == null ? fe : backend.rules();
        log.responseKnown(this);
        responseSide = true;
        afterResponse = true;
        try {
            if (HttpRule.runAll(be.afterResponse(), this, head) == Verdict.CONTINUE && fe != be) {
                HttpRule.runAll(fe.afterResponse(), this, head);
            }
        } finally {
            responseSide = false;
            afterResponse = false;
        }
        boolean failed = afterResponseFailed;
        afterResponseFailed = false;
        return !failed;
    }

    /**
     * An http-after-response rewrite failed in strict mode: as HAProxy, the response becomes the proxy's 500, which the
     * rules see in turn, unless it already was a 500 (the rules failed on it: it goes as it is).
     */
    private void replaceWithInternalError(ResponseHead failed) {
        log.rewriteRefused();
        constReply = failed.status() == 500;
        answerError(500, null, null);
    }

    /** Ends both connections at once: the response was already under way. */
    /**
     * A {@code tcp-request content} rule of the frontend (or of the backend) refused the request: the transaction ends
     * now, its line logged as HAProxy logs it when the stream ends, and the connection closes without an answer.
     */
    private void refused(boolean byFrontend) {
        log.contentRefused(byFrontend);
        endExchange();
        front.streamDone(this, false);
    }

    public void abort() {
        endExchange();
        front.closeAfterFlush();
    }

    /**
     * The client closed its side before the end of the exchange. A request it had not finished is given up: both
     * connections close without an answer (an early response goes on to its end first), as in HAProxy. A complete
     * request still waiting for its response is answered as usual, unless the backend has
     * {@code option abortonclose}: then it is abandoned, as HAProxy does when it sees the close: in a queue or while
     * connecting without an answer, waiting for the response head with a 400.
     */
    public void clientShut() {
        if (finished || response != null && requestEnded || tarpitReply != null) {
            return; // (a tarpit holds a half-closed client too: HAProxy does not watch it meanwhile)
        }
        if (!requestEnded && response == null) {
            if (server == null && held != null && held.waiting()) {
                // As in HAProxy, the close ends a wait for the body: the rules and the backend's choice go on (so the
                // backend is logged), then the request is given up.
                held.cut();
                routeRequest();
                if (finished) {
                    return;
                }
            }
            logClientAbort();
            abort();
        } else if (!requestEnded) {
            log.error('C'); // the request was cut short: CD, as HAProxy logs it
            requestEnded = true;
            serverReusable = false; // it still expects the rest of the body
            maybeComplete();
        } else if (backend.httpOptions().abortOnClose) {
            clientWantsClose = true;
            log.error('C'); // CQ in a queue, CC while connecting, CH waiting for the response head
            if (server == null) {
                abort(); // nothing was asked of a server yet: HAProxy sends nothing (status -1)
            } else {
                fail(400);
            }
        }
    }

    /** The client went away. */
    public void clientClosed() {
        endTarpit();
        if (!finished) {
            logClientAbort();
            endExchange();
        }
    }

    /**
     * The client left: CD while its request's body still went to the server, as HAProxy (else the state the
     * transaction is in: CC while connecting, CH waiting for the response...).
     */
    private void logClientAbort() {
        if (!requestEnded && server != null) {
            log.error('C', 'D');
        } else {
            log.error('C');
        }
    }

    private void releasePending() {
        if (held != null) {
            held.release();
        }
        if (heldResponse != null) {
            heldResponse.release();
        }
        if (replay != null && finished) {
            replay.release();
            replay = null;
        }
        dropPending();
    }

    /** Releases the request bytes waiting for the server connection. */
    private void dropPending() {
        ByteBuf b;
        while ((b = pending.poll()) != null) {
            b.release();
        }
    }

    // --- timeouts ------------------------------------------------------------------------------

    /**
     * Makes the connection's timer fire no later than the earliest inactivity deadline. Activity only
     * moves deadlines later, so it need not touch the timer: when it fires, {@link #checkTimeouts} looks
     * at the real times and sets it again.
     */
    private void armTimer() {
        long next = nextDeadline();
        if (next != Long.MAX_VALUE && !finished) {
            front.timer().setAt(next);
        }
    }

    /** The earliest of the transaction's deadlines (nanoTime), or Long.MAX_VALUE. */
    private long nextDeadline() {
        long next = Long.MAX_VALUE;
        long client = frontend.timeouts().client;
        long srv = serverTimeoutMillis();
        if (client > 0) {
            next = Math.min(next, lastClientActivity + TimeUnit.MILLISECONDS.toNanos(client));
        }
        if (srv > 0) {
            next = Math.min(next, lastServerActivity + TimeUnit.MILLISECONDS.toNanos(srv));
        }
        if (bodyWait != null && bodyWait.deadline() != 0) {
            next = Math.min(next, bodyWait.deadline());
        }
        if (queueDeadline != 0) {
            next = Math.min(next, queueDeadline);
        }
        if (held != null && held.waiting()) {
            next = Math.min(next, held.deadline());
        }
        if (heldResponse != null && heldResponse.waiting()) {
            next = Math.min(next, heldResponse.deadline());
        }
        return next;
    }

    private void cancelTimer() {
        front.timer().clear();
    }

    /** The connection's timer fired while this transaction runs. */
    public void checkTimeouts() {
        if (finished) {
            return;
        }
        long now = System.nanoTime();
        if (held != null && held.expired(now)) {
            log.error('c'); // (cR, as HAProxy's when the body does not come)
            fail(408);
            return;
        }
        if (bodyWait != null && bodyWait.expired(now)) {
            fail(408);
            return;
        }
        if (heldResponse != null && heldResponse.expired(now)) {
            log.error('s', 'R'); // (sic: HAProxy 2.6 logs sR)
            fail(504);
            return;
        }
        if (queueDeadline != 0 && now - queueDeadline >= 0) {
            queueExpired();
            return;
        }
        long srv = serverTimeoutMillis();
        // (timeout server runs once a server connection is there, as in HAProxy: not while the transaction waits in
        // a queue, nor while it connects or pauses between connection retries, which timeout connect bounds)
        // (nor while the server is not read because the client does not take the response: only timeout client runs
        // then, as HAProxy's read timeout is off while the buffer towards the client is full)
        boolean waitingServer = server != null && !responseEnded && !(ticket != null && ticket.queued())
                && !(response != null && !client.isWritable());
        if (srv > 0 && waitingServer && now - lastServerActivity >= TimeUnit.MILLISECONDS.toNanos(srv)) {
            serverTimeout();
            return;
        }
        long cli = frontend.timeouts().client;
        // A request body is timed while it is read before the server connection or alongside a response; not while
        // the server has the request and has not answered (HAProxy's request channel does not expire meanwhile: the
        // server's timeout runs), nor while it is not read because the server does not take it.
        boolean readingBody = !requestEnded && !serverBusy() && (server == null || response != null);
        boolean waitingClient = readingBody || response != null && !client.isWritable();
        if (cli > 0 && waitingClient && now - lastClientActivity >= TimeUnit.MILLISECONDS.toNanos(cli)) {
            log.error('c');
            if (response == null) {
                fail(408);
            } else {
                closeNow(); // the client stopped reading: what waits for it is dropped, as HAProxy
            }
            return;
        }
        armTimer();
    }

    /** Bytes moved on the client side (the front connection reports reads and drains). */
    public void clientActive() {
        lastClientActivity = LoopClock.nanoTime();
        called();
    }

    /** Bytes moved on the server side. */
    public void serverActive() {
        lastServerActivity = LoopClock.nanoTime();
        called();
    }

    // --- what show sess sees and does (LiveStream) --------------------------------------------------

    @Override
    public void kill(char cause) {
        if (!finished && response == null && requestEnded) {
            // As HAProxy: a whole request whose response has not begun gets a 502 ("KH" in the log), and the
            // client connection lives on as after any error it may keep.
            log.error(cause, 'H');
            answerError(502, null, null);
            return;
        }
        log.error(cause, '-'); // HAProxy's analysers leave the state unset on a kill
        closeNow();
    }

    /** Ends the transaction and closes the client connection at once, whatever waits to be written: channelInactive logs it. */
    private void closeNow() {
        endExchange();
        client.close();
    }

    @Override
    protected long deadline() {
        return finished ? Long.MAX_VALUE : nextDeadline();
    }

    @Override
    protected long clientDeadline() {
        long t = frontend.timeouts().client;
        return finished || t <= 0 ? Long.MAX_VALUE : lastClientActivity + TimeUnit.MILLISECONDS.toNanos(t);
    }

    @Override
    protected long serverDeadline() {
        long t = serverTimeoutMillis();
        return finished || server == null || t <= 0 ? Long.MAX_VALUE : lastServerActivity + TimeUnit.MILLISECONDS.toNanos(t);
    }

    @Override
    protected int serverSideState() {
        if (server != null) {
            return 8;
        }
        if (ticket != null && ticket.queued()) {
            return 2;
        }
        return target != null && attempts > 0 && !finished ? 5 : 0;
    }

    @Override
    protected Channel serverChannel() {
        return backChannel();
    }

    @Override
    protected boolean http() {
        return true;
    }

    public boolean requestEnded() {
        return requestEnded;
    }

    // --- what rules and log lines see (SampleContext) ------------------------------------------------

    @Override
    public SocketAddress source() {
        return endpoints != null ? endpoints.source() : front.source();
    }

    @Override
    public SocketAddress destination() {
        return endpoints != null ? endpoints.destination() : front.destination();
    }

    @Override
    public Endpoints endpoints() {
        if (endpoints == null) {
            endpoints = front.endpoints().copy();
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
    public CacheTxn cache() {
        if (cache == null) {
            cache = new CacheTxn();
        }
        return cache;
    }

    @Override
    public String cacheName() {
        return cache == null ? null : cache.servedBy();
    }

    @Override
    public Algo compressedWith() {
        return compressed;
    }

    @Override
    public ResponseHead response() {
        return response;
    }

    @Override
    public boolean responseSide() {
        return responseSide;
    }

    @Override
    public Channel backChannel() {
        return server == null ? lastServerChannel : server.channel();
    }

    @Override
    public Vars vars(VarScope scope) {
        return switch (scope) {
            case PROC -> Vars.PROC;
            case SESS -> front.sessionVars();
            case TXN -> txnVars == null ? txnVars = new Vars(VarScope.TXN, front.sessionVars()) : txnVars;
            case REQ -> reqVars == null ? reqVars = new Vars(VarScope.REQ, vars(VarScope.TXN)) : reqVars;
            case RES -> resVars == null ? resVars = new Vars(VarScope.RES, vars(VarScope.TXN)) : resVars;
            case CHECK -> null;
        };
    }

    public boolean finished() {
        return finished;
    }

    @Override
    public StreamLog streamLog() {
        return log;
    }
}
