package io.fulcrum.log;

import io.fulcrum.backend.Backend;
import io.fulcrum.backend.Ticket;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.server.Observation;
import io.fulcrum.server.Server;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.util.AsciiString;
import io.netty.util.AttributeKey;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What a log line says about one transaction (an HTTP request or a TCP session), recorded by the stream as
 * it happens: the dates of its events (HAProxy's timing events, section 8.4), bytes, retries, the first
 * error and where the transaction stood then (the termination state, section 8.5), the request line and
 * captured headers as received. Lives on the transaction's event loop.
 */
public final class StreamLog {
    /**
     * When a connection that starts with handshakes ({@code accept-proxy}) was accepted: nanoTime and wall
     * clock, set by the acceptor, so that its first transaction counts from there (%Th).
     */
    public static final AttributeKey<long[]> ACCEPTED = AttributeKey.valueOf("fulcrum.accepted");
    private static final long NONE = Long.MIN_VALUE;
    private static final long AWAITED = Long.MIN_VALUE + 1;
    /** {@link #level(String)} of a name that is no level. */
    public static final int NO_LEVEL = -2;
    /** The level of {@code set-log-level silent}: no line. */
    private static final int SILENT = -1;

    private final FrontendLogger logger;
    private boolean http;
    final long acceptMillis;
    private final long acceptNanos;
    private long handshakeNanos;
    private long requestNanos = NONE;
    private long requestMillis;
    private long headNanos = NONE;
    /**
     * When the wait for the request's body (option http-buffer-request, wait-for-body) ended: HAProxy's TR ends there,
     * after the head; {@link #AWAITED} while it waits, NONE when the request waited for none.
     */
    private long bodyNanos = NONE;
    private long assignedNanos = NONE;
    private long connectedNanos = NONE;
    private long responseNanos = NONE;
    private long endNanos = NONE;
    /** When a tarpit let the request go (HAProxy logs the time held as Tw), or NONE. */
    private long tarpitNanos = NONE;

    private long bytesIn;
    private long bytesOut;
    /** Bytes of the transaction went to the client (then a failure is one of the data phase, D). */
    private boolean written;
    private int retries;
    private int redispatches;
    private int status;
    private char cause = '-';
    private char state = '-';
    /** The persistence cookie's characters of %tsc (request, response), '-' when the backend has no cookie mode. */
    private char cookieRequest = '-';
    private char cookieResponse = '-';
    private boolean badRequest;
    /**
     * The request was refused before HAProxy times its head (TR -1): by tcp-request content rules, or as HTTP/2's PRI
     * method; {@link #lineUnknown}: a frontend's rules, before its capture.
     */
    private boolean headUntimed;
    private boolean lineUnknown;
    /** The server's response could not be parsed (PH): a response error, not a denial. */
    private boolean badResponse;
    /** The transaction failed on an error of the proxy's own (a failed rewrite in strict mode): counted in eint. */
    private boolean internalError;
    private long id = -1;
    private long logNumber;
    private String uniqueId;
    /** The line was sent before the end ({@code logasap}). */
    private boolean loggedEarly;
    /** While the line is built before the end: the bytes sent to the client so far (%B), else -1. */
    private long earlyBytes = -1;
    /** %B once the response head was read, with the body bytes (HTX data) that came with it: see {@link #bodyWithHead}. */
    private long outWithHead;
    /** The bytes already in the counters ({@code option contstats}): the end adds the rest. */
    long countedIn;
    long countedOut;
    /** The transaction's http_err, then its http_fail, went to the trackers ({@link TransactionCounts#errors}). */
    boolean errorTold;
    boolean failureTold;
    /** The level set by {@code set-log-level}, else {@link #NO_LEVEL}. */
    private int level = NO_LEVEL;

    private AsciiString method;
    private AsciiString uri;
    private CharSequence version;
    /** The request line cut to {@code tune.http.logurilen}, when it was longer; else null (the parts make it). */
    private String cutLine;
    String[] requestCaptures;
    String[] responseCaptures;
    /** {@code capture cookie}: "name=value" of the request (%CC) and of the response (%CS), or null. */
    String requestCookie;
    String responseCookie;

    private SocketAddress serverAddress;
    private SocketAddress serverLocal;
    private ConnLimit backendStreams;
    /** The stream's claim on a server slot, given back when the transaction ends. */
    private Ticket ticket;
    private Backend backend;
    /** The last server counted as chosen for this transaction. */
    private Server server;
    /** What answered instead of a server ({@code <STATS>}...), or null. */
    private String applet;
    /** The frontend counted this transaction as intercepted when the answer was chosen ({@link #interceptedNow}). */
    private boolean interceptCounted;

    /**
     * @param acceptNanos  when the transaction began ({@link System#nanoTime()}): the connection's accept, or
     *                     for a next request on it, the end of the previous one
     * @param acceptMillis the same date, wall clock
     */
    StreamLog(FrontendLogger logger, boolean http, long acceptNanos, long acceptMillis) {
        this.logger = logger;
        this.http = http;
        this.acceptNanos = acceptNanos;
        this.acceptMillis = acceptMillis;
        this.handshakeNanos = acceptNanos;
        this.status = http ? -1 : 0;
    }

    /**
     * The record is an HTTP transaction's from now on: its TCP session became HTTP (an HTTP backend, switch-mode
     * http), as will the next ones of its connection.
     */
    public StreamLog asHttp() {
        if (!http) {
            http = true;
            status = -1;
        }
        return this;
    }

    // --- events, recorded by the streams ------------------------------------------------------

    /** The low-level handshakes (PROXY header) ended: the transaction proper starts now (Th). */
    public void handshakeDone(long nanos) {
        handshakeNanos = Math.max(nanos, acceptNanos);
    }

    /** The first byte of the request arrived (end of Ti); the next ones do not count. */
    public void requestStarted() {
        if (requestNanos == NONE) {
            requestNanos = Math.max(LoopClock.nanoTime(), handshakeNanos);
            requestMillis = LoopClock.currentTimeMillis();
        }
    }

    /** A byte of the request arrived. */
    public boolean hasRequest() {
        return requestNanos != NONE;
    }

    /** The request head is complete (end of TR): its line and captured fields are kept as received. */
    public void requestHead(RequestHead head) {
        requestStarted();
        begin();
        if (headNanos == NONE && !badRequest) {
            logger.requestReceived(true);
        }
        headNanos = LoopClock.nanoTime();
        method = head.method();
        uri = head.uri();
        version = head.receivedVersion();
        cutLine = null;
        int limit = logger.requestLineLimit();
        if (method.length() + uri.length() + version.length() + 2 > limit) {
            cutRequestLine(limit);
        }
        requestCaptures = logger.captures().request(head, requestCaptures);
        requestCookie = logger.captures().requestCookie(head);
        // HAProxy's transaction holds its response slots from the parsed request on: "{}" and "-" without a response
        responseCaptures = logger.captures().allocate(true, responseCaptures);
    }

    /**
     * Keeps the first {@code limit} characters of the request line, and its parts as HAProxy finds them in what is
     * left: the method up to the first space, the URI up to the next one, the version after it (HTTP/0.9 when none
     * is left, as for a request without one).
     */
    private void cutRequestLine(int limit) {
        String line = (method + " " + uri + " " + version).substring(0, limit);
        int first = line.indexOf(' ');
        int second = first < 0 ? -1 : line.indexOf(' ', first + 1);
        cutLine = line;
        method = new AsciiString(first < 0 ? line : line.substring(0, first));
        uri = new AsciiString(first < 0 ? "" : second < 0 ? line.substring(first + 1) : line.substring(first + 1, second));
        version = second < 0 ? "HTTP/0.9" : line.substring(second + 1);
    }

    /** The request's body is awaited: TR goes on (-1 if the wait fails). */
    public void awaitingBody() {
        bodyNanos = AWAITED;
    }

    /**
     * The body awaited is in, or the client closed, or {@code option http-buffer-request} found it there at once (HAProxy
     * ends TR after that option's analyser whether it waited or not): the end of TR, unless it already ended.
     */
    public void bodyAwaited() {
        if (bodyNanos == NONE || bodyNanos == AWAITED) {
            bodyNanos = LoopClock.nanoTime();
        }
    }

    /** Where TR ends: the head, or the end of the wait for the body; NONE while that lasts. */
    private long requestEndNanos() {
        return bodyNanos == NONE ? headNanos : bodyNanos == AWAITED ? NONE : bodyNanos;
    }

    /** A rule captured {@code value} into slot {@code slot} of the frontend's request or response captures. */
    void capture(boolean response, int slot, CharSequence value) {
        if (response) {
            responseCaptures = logger.captures().store(true, responseCaptures, slot, value);
        } else {
            requestCaptures = logger.captures().store(false, requestCaptures, slot, value);
        }
    }

    /** The value in a capture slot, or null. */
    String captured(boolean response, int slot) {
        String[] values = response ? responseCaptures : requestCaptures;
        return values == null || slot < 0 || slot >= values.length ? null : values[slot];
    }

    /** The syslog level of a {@code set-log-level} name ("silent": none), or {@link #NO_LEVEL}. */
    public static int level(String name) {
        if (name.equals("silent")) {
            return SILENT;
        }
        int level = Syslog.level(name);
        return level < 0 ? NO_LEVEL : level;
    }

    /** {@code set-log-level}: the line's level, or {@code silent} (see {@link #level(String)}). */
    public void level(int level) {
        this.level = level;
    }

    /** No line for this transaction, as {@code set-log-level silent}. */
    public void silence() {
        level = SILENT;
    }

    /** The level the line is sent at ({@code fallback} unless a rule set one); negative: no line. */
    int levelOr(int fallback) {
        return level == NO_LEVEL ? fallback : level;
    }

    /** The record of the transaction {@code ctx} is, or null. */
    public static StreamLog of(SampleContext ctx) {
        return ctx instanceof LogContext lc ? lc.streamLog() : null;
    }

    /** The request could not be parsed: the line logs as {@code <BADREQ>}. */
    public void badRequest() {
        if (headNanos == NONE && !badRequest) {
            logger.requestReceived(hasRequest());
        }
        badRequest = true;
    }

    /**
     * The request has the PRI method of HTTP/2's preface: HAProxy refuses it as a bad request (PR, counted in ereq)
     * before it times its head (TR -1) and captures its line ({@code <BADREQ>}).
     */
    public void preface() {
        badRequest();
        error('P', 'R');
        headUntimed = true;
    }

    /**
     * tcp-request content rules refused the request (PR), {@code frontend}'s or a backend's: HAProxy runs them before
     * it times the request head (TR -1), a frontend's even before it captures the request line ({@code <BADREQ>}).
     */
    public void contentRefused(boolean frontend) {
        error('P', 'R');
        headUntimed = true;
        lineUnknown = frontend;
    }

    /**
     * A tarpit ends now (PT): as HAProxy, the time since the transaction began is its Tw ("the time the client
     * connection was maintained open", section 8.4) and the request head is not timed (TR -1).
     */
    public void tarpitted() {
        error('P', 'T');
        tarpitNanos = LoopClock.nanoTime();
        headUntimed = true;
    }

    /**
     * The server's response was invalid: 'P' in the state the transaction is in, counted as HAProxy's return_bad_res
     * counts it (eresp of the backend and server, no dresp).
     */
    public void badResponse() {
        badResponse = true;
        error('P');
    }

    /**
     * The transaction asks {@code backend} for a server with {@code ticket} (null: the backend answers without a
     * server, from its cache): it counts in the backend's
     * current streams (HAProxy's beconn, queued ones included), and the server slot the ticket holds is given
     * back, when it ends. Once.
     */
    public void enterBackend(Backend backend, Ticket ticket) {
        if (backendStreams == null) {
            this.backend = backend;
            backendStreams = backend.streams();
            backendStreams.tryAcquire();
            this.ticket = ticket;
            backend.counters().sessionStarted();
        }
    }

    /** A server slot is held, or the wait for one gave up (end of Tw, which includes the time spent in queues). */
    public void serverAssigned() {
        if (assignedNanos == NONE) {
            assignedNanos = LoopClock.nanoTime();
        }
        Server s = ticket == null ? null : ticket.server();
        if (s != null && s != server) {
            server = s;
            if (!ticket.waited()) {
                // lbtot: the algorithm's choices, as HAProxy's assign_server() counts them (not a queue's grants)
                backend.counters().increment(Counters.Count.SELECTED);
                s.counters().increment(Counters.Count.SELECTED);
            }
        }
    }

    /**
     * The stream connects to its server, on a new or an idle connection, retries included: HAProxy's connect_server()
     * counts a session of the server each time (stot, rate, lastsess).
     */
    public void connecting() {
        if (server != null) {
            server.counters().sessionStarted();
            server.counters().increment(Counters.Count.SESSIONS);
        }
    }

    /** The proxy answers with one of its services ({@code <STATS>}): its name replaces the server's in the logs (%s). */
    public void applet(String name) {
        applet = name;
        // As HAProxy's, the service is "connected" at once: Tw and Tc are 0.
        long now = LoopClock.nanoTime();
        assignedNanos = assignedNanos == NONE ? now : assignedNanos;
        connectedNanos = connectedNanos == NONE ? now : connectedNanos;
    }

    String applet() {
        return applet;
    }

    /**
     * The proxy's stats page or one of its services answers: {@code frontend} counts the request as intercepted now,
     * before the answer is made, as HAProxy counts it as it picks the applet (a scrape of the counters counts itself);
     * null when a backend's page or service answers, which HAProxy does not count (its fe == be test).
     */
    public void interceptedNow(Counters frontend) {
        if (!interceptCounted) {
            interceptCounted = true;
            if (frontend != null) {
                frontend.increment(Counters.Count.INTERCEPTED);
            }
        }
    }

    boolean interceptCounted() {
        return interceptCounted;
    }

    /** The server connection is established (end of Tc); {@code observe layer4} counts it, as HAProxy's back_establish(). */
    public void connected(Channel server) {
        connectedNanos = LoopClock.nanoTime();
        serverAddress = server.remoteAddress();
        serverLocal = server.localAddress();
        if (this.server != null) {
            this.server.observe(Observation.L4_OK);
        }
    }

    /**
     * A connection to {@code to} failed: HAProxy's %si/%sp still name the server it tried, and %bi/%bp the
     * address the socket had (Netty keeps it once the connect began on epoll; the ring's connect on io_uring leaves
     * none: then the source address the system routes {@code to} from, port 0).
     */
    public void connectFailed(Channel server, SocketAddress to) {
        serverAddress = to;
        serverLocal = server.localAddress() != null ? server.localAddress() : routedSource(to);
        if (this.server != null) {
            this.server.observe(Observation.L4_ERROR); // each attempt, retries included, as HAProxy's back_handle_st_cer()
        }
    }

    /**
     * The response head arrived (end of Tr); interim responses do not end Tr, a 101 (the last HTTP one) does. The
     * server counts each interim response as a request and a 1xx at once, as HAProxy's http_wait_for_response does
     * (its frontend and backend count the final response only).
     */
    public void responseHead(ResponseHead head) {
        if (head.isInterim() && head.status() != 101) {
            if (server != null) {
                server.counters().increment(Counters.Count.REQUESTS);
                server.counters().response(head.status());
            }
            return;
        }
        if (responseNanos != NONE) {
            return;
        }
        responseNanos = LoopClock.nanoTime();
        if (server != null) {
            server.observe(Observation.ofStatus(head.status())); // observe layer7, as the head arrives
        }
        responseCaptures = logger.captures().response(head, responseCaptures);
        responseCookie = logger.captures().responseCookie(head);
    }

    /**
     * The first event that ends the transaction abnormally (later ones are ignored), with the state it
     * was in: 'C'/'S' a side aborted, 'c'/'s' its timeout expired, 'P' the proxy refused, 'L' the proxy
     * answered itself (see HAProxy's section 8.5).
     */
    public void error(char cause, char state) {
        if (this.cause == '-') {
            this.cause = cause;
            this.state = state;
            if (state == 'H') {
                responseNanos = NONE; // a response head refused (http-response deny) was never accepted: Tr is -1
            }
        }
    }

    /**
     * A rewrite failed in strict mode on the response about to go: 'P', as {@link #error(char)}, also over the 'L' of
     * the proxy's own answer it was (HAProxy marks an answer 'L' once sent).
     */
    public void rewriteRefused() {
        if (cause == 'L') {
            cause = 'P';
        } else {
            error('P');
        }
    }

    /** {@link #error(char, char)} in the state the transaction is in now. */
    public void error(char cause) {
        error(cause, stateNow());
    }

    /** R: waiting for the request, Q: in a queue, C: for the server connection, H: for the response head, D: in the data. */
    private char stateNow() {
        if (ticket != null && ticket.queued()) {
            return 'Q';
        }
        if (!http) {
            return connectedNanos != NONE ? 'D' : 'C';
        }
        if (headNanos == NONE) {
            return 'R';
        }
        if (written && (responseNanos != NONE || connectedNanos == NONE)) {
            return 'D'; // (interim responses sent: still waiting for the final head, H)
        }
        if (connectedNanos != NONE) {
            return 'H';
        }
        return assignedNanos != NONE ? 'C' : 'R';
    }

    /** The status of a response the proxy sent itself. */
    public void status(int status) {
        this.status = status;
    }

    public void retries(int retries) {
        this.retries = retries;
    }

    /**
     * A retry goes to another server than {@code left} (HAProxy's SF_REDISP, "+" before %rc): counted as a redispatch
     * of the backend and of the server left, and not as a retry (wredis, not wretr, as HAProxy counts them).
     */
    public void redispatch(Backend backend, Server left) {
        redispatches++;
        backend.counters().increment(Counters.Count.REDISPATCHES);
        left.counters().increment(Counters.Count.REDISPATCHES);
    }

    boolean redispatched() {
        return redispatches > 0;
    }

    /** The retries that stayed on their server (wretr). */
    int sameServerRetries() {
        return Math.max(0, retries - redispatches);
    }

    /** Bytes received from the client (%U): in HTTP mode, HAProxy's count of them (their HTX data), not the wire's. */
    public void bytesIn(long n) {
        bytesIn += n;
    }

    /** Bytes sent to the client (%B): in HTTP mode, HAProxy's count of them (their HTX data), not the wire's. */
    public void bytesOut(long n) {
        bytesOut += n;
    }

    /** Bytes of the transaction were written to the client (which %B does not count: HAProxy counts its messages). */
    public void written() {
        written = true;
    }

    /**
     * The response head was just counted; {@code n}: the body's HTX data that arrived with it. HAProxy's
     * {@code option logasap} logs what its response buffer holds then in %B: the head and that part of the body.
     */
    public void bodyWithHead(long n) {
        outWithHead = bytesOut + n;
    }

    /** A layer 7 retry drops what came of the server's response: %B starts over (as HAProxy zeroes {@code res->total}). */
    public void responseDropped() {
        bytesOut = 0;
    }

    /** The transaction ended (Ta, Tt): it no longer counts in its backend and server. Once. */
    boolean end() {
        if (endNanos != NONE) {
            return false;
        }
        endNanos = LoopClock.nanoTime();
        // The server slot first: the waiters it wakes are counted against a backend load that still includes this
        // stream (the dynamic maxconn of minconn), as HAProxy dequeues before it decrements beconn.
        if (ticket != null) {
            ticket.release();
        }
        if (backendStreams != null) {
            backendStreams.release();
        }
        return true;
    }

    // --- what log variables read ----------------------------------------------------------------

    FrontendLogger logger() {
        return logger;
    }

    /** This line's number among its frontend's (%lc). */
    void logNumber(long n) {
        logNumber = n;
    }

    long logNumber() {
        return logNumber;
    }

    /**
     * The response about to be sent ({@code ctx}'s status): its HTTP error or failure, if any, counts in the
     * connection's stick-table trackers now, before the response rules run (HAProxy's http_err_cnt, http_fail_cnt).
     */
    public void responseKnown(LogContext ctx) {
        TransactionWatcher w = TransactionWatcher.of(ctx.frontChannel());
        if (w != null) {
            TransactionCounts.errors(w, this, status(ctx));
        }
    }

    /** The status logged: the one the proxy set, else the response's (-1 when none, 0 in TCP). */
    int status(SampleContext ctx) {
        return status >= 0 ? status : ctx.status();
    }

    boolean http() {
        return http;
    }

    /**
     * The proxy failed the transaction itself (a rewrite that did not fit, in strict mode): an internal error, not a
     * denial. As HAProxy, a request it failed on is not timed (TR -1).
     */
    public void internalError() {
        internalError = true;
        if (stateNow() == 'R') {
            headNanos = NONE;
        }
    }

    boolean isInternalError() {
        return internalError;
    }

    boolean isBadRequest() {
        return badRequest;
    }

    /** The request line is logged as {@code <BADREQ>}: it could not be parsed, or was refused before its capture. */
    boolean lineUnknown() {
        return badRequest || lineUnknown;
    }

    boolean isBadResponse() {
        return badResponse;
    }

    long bytesIn() {
        return bytesIn;
    }

    /** Bytes sent to the client (%B): when the line is built before the end ({@code logasap}), those sent so far. */
    long bytesOut() {
        return earlyBytes >= 0 ? earlyBytes : bytesOut;
    }

    /** %B for {@code logasap} once the response head went to the client: see {@link #bodyWithHead(long)}. */
    long bytesOutAtHead() {
        return Math.max(bytesOut(), outWithHead);
    }

    boolean loggedEarly() {
        return loggedEarly;
    }

    void loggedEarly(boolean logged) {
        loggedEarly = logged;
    }

    void earlyBytes(long bytes) {
        earlyBytes = bytes;
    }

    int retries() {
        return retries;
    }

    /** The backend a server was taken from, or null. */
    Backend backend() {
        return backend;
    }

    /** The last server assigned, or null. */
    Server server() {
        return server;
    }

    /** The server connection was established. */
    boolean serverConnected() {
        return connectedNanos != NONE;
    }

    /** A response head came from the server. */
    boolean serverResponded() {
        return responseNanos != NONE;
    }

    char cause() {
        return cause;
    }

    char state() {
        return state;
    }

    /** The request head arrived. */
    boolean hasRequestHead() {
        return headNanos != NONE;
    }

    /** Streams served before this one while it waited in its server's queue (%sq), 0 when it did not wait. */
    long serverQueuePosition() {
        return ticket == null ? 0 : ticket.serverQueuePosition();
    }

    /** Streams served before this one while it waited in its backend's queue (%bq). */
    long backendQueuePosition() {
        return ticket == null ? 0 : ticket.backendQueuePosition();
    }

    /** The two characters of the termination state. */
    String termination() {
        return new String(new char[] {cause, state});
    }

    /** The four characters of %tsc: the termination state and the persistence cookie's. */
    String terminationWithCookies() {
        return new String(new char[] {cause, state, cookieRequest, cookieResponse});
    }

    /** Records what persistence saw of the cookie in the request and the response (see PersistTxn). */
    public void cookieStatus(char request, char response) {
        cookieRequest = request;
        cookieResponse = response;
    }

    /** Something went wrong: an error, a timeout or an abort (a local answer is not one), or a retry. */
    boolean failed() {
        return cause != '-' && cause != 'L' || retries > 0;
    }

    /** The stream begins: it draws its number (%rt), as HAProxy's streams do when they are created. */
    public void begin() {
        id();
    }

    /** The request counter (%rt), drawn when the stream begins or, without one, when its line is built. */
    long id() {
        if (id < 0) {
            id = logger.nextStream();
        }
        return id;
    }

    /** The unique ID ({@code unique-id-format}), computed when first asked for; null without a format. */
    public String uniqueId(LogContext ctx) {
        if (uniqueId == null && !badRequest) { // no transaction, no ID (as HAProxy's connection-level lines)
            uniqueId = logger.uniqueId(ctx);
        }
        return uniqueId;
    }

    /** The date of the request's first byte (%tr), or the accept date. */
    long requestMillis() {
        return requestNanos == NONE ? acceptMillis : requestMillis;
    }

    AsciiString method() {
        return method;
    }

    AsciiString uri() {
        return uri;
    }

    /** The request line as received, or null. */
    String requestLine() {
        return method == null ? null : cutLine != null ? cutLine : method + " " + uri + " " + version;
    }

    String httpVersion() {
        return method == null ? null : version.toString();
    }

    SocketAddress serverAddress() {
        return serverAddress;
    }

    /** The local address the system would connect to {@code to} from (a UDP socket's connect: no packet), or null. */
    private static SocketAddress routedSource(SocketAddress to) {
        if (!(to instanceof java.net.InetSocketAddress inet) || inet.isUnresolved()) {
            return null;
        }
        try (java.nio.channels.DatagramChannel udp = java.nio.channels.DatagramChannel.open()) {
            udp.connect(inet);
            return new java.net.InetSocketAddress(((java.net.InetSocketAddress) udp.getLocalAddress()).getAddress(), 0);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    SocketAddress serverLocal() {
        return serverLocal;
    }

    // --- timers, in ms, -1 for an event that did not happen ------------------------------------------

    private long ms(long nanos) {
        return nanos == NONE ? NONE : TimeUnit.NANOSECONDS.toMillis(nanos - acceptNanos);
    }

    private static long between(long from, long to) {
        return from == NONE || to == NONE ? -1 : Math.max(0, to - from);
    }

    private long endOrNow() {
        return endNanos != NONE ? endNanos : System.nanoTime();
    }

    long th() {
        return ms(handshakeNanos);
    }

    long ti() {
        // a connection closed or timed out before its first byte: HAProxy logs no idle time (0), not -1
        return requestNanos == NONE ? 0 : between(ms(handshakeNanos), ms(requestNanos));
    }

    long tR() {
        return headUntimed ? -1 : between(ms(requestNanos), ms(requestEndNanos()));
    }

    long tq() {
        long ti = ti();
        long tr = tR();
        return ti < 0 || tr < 0 ? -1 : th() + ti + tr;
    }

    long tw() {
        if (tarpitNanos != NONE) {
            return ms(tarpitNanos);
        }
        return between(ms(http ? requestEndNanos() : handshakeNanos), ms(assignedNanos));
    }

    long tc() {
        return between(ms(assignedNanos), ms(connectedNanos));
    }

    long tr() {
        return between(ms(connectedNanos), ms(responseNanos));
    }

    long ta() {
        return between(ms(requestNanos != NONE ? requestNanos : handshakeNanos), ms(endOrNow()));
    }

    long tt() {
        return ms(endOrNow());
    }

    long tu() {
        return Math.max(0, tt() - Math.max(0, ti()));
    }

    /**
     * Td = Tt - (Th + Ti + TR + Tw + Tc + Tr), the timers that did not happen left out; -1, as HAProxy's, when there
     * was no data phase: no response head from a server (HTTP: a deny, a {@code return}, an error), no server
     * connection (TCP).
     */
    long td() {
        if (connectedNanos == NONE || http && responseNanos == NONE) { // (HAProxy: Tr, or for TCP Tc, is -1)
            return -1;
        }
        long d = tt() - th();
        for (long t : http ? new long[] {ti(), tR(), tw(), tc(), tr()} : new long[] {tw(), tc()}) {
            d -= Math.max(0, t);
        }
        return Math.max(0, d);
    }
}
