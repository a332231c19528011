package io.fulcrum.log;

import io.fulcrum.conn.ConnError;
import io.fulcrum.http.RequestHead;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.LoopClock;
import io.fulcrum.stats.Counters;
import io.netty.channel.Channel;
import io.netty.util.concurrent.FastThreadLocal;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A frontend's logging at run time: starts the record of each transaction, and at its end (or, with
 * {@code logasap}, once its data starts flowing) decides whether it is logged ({@code dontlognull},
 * {@code dontlog-normal}), at which level ({@code log-separate-errors}), in which format with which structured
 * data ({@code log-format-sd}), then hands the line to the sender. Runs on the event loops; never blocks.
 */
public final class FrontendLogger {
    private static final FastThreadLocal<StringBuilder> LINE = new FastThreadLocal<>() {
        @Override
        protected StringBuilder initialValue() {
            return new StringBuilder(256);
        }
    };

    private final ProcessLog process;
    private final String frontend;
    private final boolean http;
    private final LogTarget[] targets;
    private final String tag;
    /** Null: the default format, a line at accept and none at the end. */
    private final LogFormat format;
    private final LogFormat errorFormat;
    private final LogFormat uniqueIdFormat;
    private final LogFormat sdFormat;
    private final String uniqueIdHeader;
    private final HeaderCaptures captures;
    private final boolean dontlognull;
    private final boolean separateErrors;
    private final boolean dontlogNormal;
    private final boolean logasap;
    private final boolean contstats;
    /** Mode tcp with a format that needs nothing of the transaction's end: logged once the server connection is up. */
    private final boolean logEarly;
    /** Lines emitted so far (%lc). */
    private final AtomicLong lines = new AtomicLong();

    private final Counters counters;

    FrontendLogger(ProcessLog process, String frontend, ProxyLog p, HeaderCaptures captures, boolean http, Counters counters) {
        this.counters = counters;
        this.process = process;
        this.frontend = frontend;
        this.http = http;
        this.targets = process.targets(p.targets);
        this.tag = process.tag(p.tag);
        this.format = p.compiled;
        this.errorFormat = p.compiledError;
        this.uniqueIdFormat = p.compiledUniqueId;
        this.sdFormat = p.compiledSd;
        // (sent lower case, as HAProxy's HTX writes every name it adds)
        this.uniqueIdHeader = p.uniqueIdHeader == null ? null : p.uniqueIdHeader.toLowerCase(Locale.ROOT);
        this.captures = captures;
        this.dontlognull = p.dontlognull;
        this.separateErrors = p.separateErrors;
        this.dontlogNormal = p.dontlogNormal;
        this.logasap = p.logasap;
        this.contstats = p.contstats;
        this.logEarly = !http && (logasap || format != null && !format.waitsForEnd());
    }

    /** {@code option contstats}: the counters take the bytes of a running stream as they pass, not all at its end. */
    public boolean contstats() {
        return contstats;
    }

    /** {@code option logasap}: %B, %Tt, %Ta and %Tu are written with a '+', as lower bounds. */
    public boolean logasap() {
        return logasap;
    }

    /** The record of a transaction that begins at {@code acceptNanos} (System.nanoTime) / {@code acceptMillis} (wall clock). */
    public StreamLog newStream(long acceptNanos, long acceptMillis) {
        return new StreamLog(this, http, acceptNanos, acceptMillis);
    }

    /** The record of a transaction that begins now. */
    public StreamLog newStream() {
        return newStream(LoopClock.nanoTime(), LoopClock.currentTimeMillis());
    }

    /**
     * The record of the first transaction of {@code client}: from its accept, its handshakes (the PROXY
     * header) ending now (Th).
     */
    public StreamLog firstStream(Channel client) {
        long[] accepted = client.attr(StreamLog.ACCEPTED).get();
        if (accepted == null) {
            return newStream();
        }
        StreamLog log = newStream(accepted[0], accepted[1]);
        log.handshakeDone(System.nanoTime());
        return log;
    }

    /**
     * A request arrived (or failed to parse): the frontend's req_tot and req_rate count it now, as HAProxy's. Its
     * HTTP/1 streams ({@code h1_total_streams}) count it only if some of it came ({@code started}): HAProxy's
     * HTTP/1 multiplexer makes no stream for a connection closed before its first byte, which req_tot counts.
     */
    void requestReceived(boolean started) {
        counters.increment(Counters.Count.REQUESTS);
        counters.requestStarted();
        if (started) {
            counters.increment(Counters.Count.H1_STREAMS);
        }
    }

    long nextStream() {
        return process.nextStream();
    }

    /** The longest request line the logs keep. */
    int requestLineLimit() {
        return process.requestLineLimit();
    }

    HeaderCaptures captures() {
        return captures;
    }

    int actconn() {
        return process.actconn();
    }

    /**
     * A stream began: a TCP connection was accepted, or an HTTP request's head was read. With targets but no format,
     * HAProxy's default format logs it now, and only now.
     */
    public void accepted(SocketAddress source, SocketAddress destination) {
        if (!logsAccepts()) {
            return;
        }
        StringBuilder sb = line();
        sb.append("Connect from ");
        address(sb, source);
        sb.append(" to ");
        address(sb, destination);
        sb.append(" (").append(frontend).append('/').append(http ? "HTTP" : "TCP").append(')');
        send(sb, Syslog.INFO);
    }

    /** HAProxy's default format is in use (targets, no format): {@link #accepted} logs a line. */
    public boolean logsAccepts() {
        return format == null && targets.length > 0;
    }

    /** An event of the proxy itself (it stopped...), sent to its targets at level warning whatever its format. */
    public void warning(String text) {
        event(Syslog.WARNING, text);
    }

    /** An event of the proxy itself, sent to its targets at {@code level} whatever its format. */
    void event(int level, String text) {
        if (targets.length > 0) {
            StringBuilder sb = line();
            sb.append(text);
            send(sb, level);
        }
    }

    /** A transaction ended: its line, once, unless the options leave it out. */
    public void ended(LogContext ctx) {
        emit(ctx, format);
    }

    /**
     * A client connection failed before a transaction could start (a request that could not be parsed or did
     * not arrive in time, an invalid PROXY header): logged with {@code error-log-format} when there is one.
     */
    public void connectionFailed(LogContext ctx) {
        emit(ctx, errorFormat != null ? errorFormat : format);
    }

    /**
     * Mode tcp, with {@code option logasap} or a format that needs nothing of the transaction's end: the server
     * connection is established, the line is sent now (the client's bytes do not matter then: {@code dontlognull}
     * does not apply), as HAProxy does.
     */
    public void serverConnected(LogContext ctx) {
        if (logEarly) {
            early(ctx, ctx.streamLog().bytesOut());
        }
    }

    /**
     * {@code option logasap} in mode http: the server's response head went to the client (%B: what was counted so far
     * and the body that came with the head, as HAProxy counts what its response buffer holds then).
     */
    public void responseHeadSent(LogContext ctx) {
        if (logasap) {
            early(ctx, ctx.streamLog().bytesOutAtHead());
        }
    }

    private void early(LogContext ctx, long bytesOut) {
        StreamLog l = ctx.streamLog();
        if (!l.loggedEarly() && format != null && targets.length > 0) {
            l.earlyBytes(bytesOut);
            l.loggedEarly(log(ctx, l, format));
            l.earlyBytes(-1);
        }
    }

    private void emit(LogContext ctx, LogFormat f) {
        StreamLog l = ctx.streamLog();
        if (!l.end()) {
            return;
        }
        TransactionCounts.count(ctx, l);
        // (A request that failed before it was parsed counts no byte, as HAProxy's <BADREQ>, but it did bring some.)
        if (format == null || targets.length == 0 || l.loggedEarly() || dontlognull && l.bytesIn() == 0 && !l.hasRequest()) {
            return;
        }
        log(ctx, l, f);
    }

    /** Sends the line in {@code f} unless the options leave it out; true when it was sent. */
    private boolean log(LogContext ctx, StreamLog l, LogFormat f) {
        boolean failed = l.failed() || http && l.status(ctx) >= 500;
        if (dontlogNormal && !failed) {
            return false;
        }
        int level = l.levelOr(failed && separateErrors ? Syslog.ERR : Syslog.INFO);
        if (level < 0) {
            return false;
        }
        l.id(); // a line without a stream draws a number as it is built, as HAProxy's do
        l.logNumber(lines.getAndIncrement());
        String sd = sdFormat == null ? null : sdFormat.format(ctx);
        StringBuilder sb = line();
        f.append(ctx, sb);
        send(sb, level, sd);
        return true;
    }

    /**
     * A connection ended before its handshakes did (no valid PROXY header): with {@code error-log-format}, a
     * line in it; else HAProxy's fixed line, "client [accept date] frontend/bind: reason".
     *
     * @param fe    the frontend (this logger's)
     * @param bytes what the client sent (not counted in %U, as HAProxy's session-level lines do not)
     * @param bind  the bind line's name, or its listener's number
     */
    public void handshakeFailed(Frontend fe, Channel client, long bytes, String bind, ConnError reason) {
        reason.setOn(client);
        StreamLog l = firstStream(client);
        l.error('P', 'R');
        l.status(0);
        l.end();
        LogContext ctx = new ConnectionContext(client, fe, null, l);
        TransactionCounts.count(ctx, l);
        if (targets.length == 0 || dontlognull && bytes == 0) {
            return;
        }
        l.logNumber(lines.getAndIncrement());
        StringBuilder sb = line();
        if (errorFormat != null) {
            l.id();
            errorFormat.append(ctx, sb);
        } else {
            address(sb, ctx.endpoints().source()); // a PROXY header's once read, even one then found invalid
            sb.append(" [");
            LogDates.accept(sb, l.acceptMillis);
            sb.append("] ").append(frontend).append('/').append(bind).append(": ").append(reason.message());
        }
        send(sb, separateErrors ? Syslog.ERR : Syslog.INFO, sdFormat == null ? null : sdFormat.format(ctx));
    }

    /** The unique ID of a transaction, or null without {@code unique-id-format}. */
    String uniqueId(LogContext ctx) {
        return uniqueIdFormat == null ? null : uniqueIdFormat.format(ctx);
    }

    /** Adds the {@code unique-id-header} field to a request going to a server. */
    public void addUniqueIdHeader(LogContext ctx, RequestHead request) {
        if (uniqueIdHeader != null && uniqueIdFormat != null) {
            request.headers().add(uniqueIdHeader, ctx.streamLog().uniqueId(ctx));
        }
    }

    private static StringBuilder line() {
        StringBuilder sb = LINE.get();
        sb.setLength(0);
        return sb;
    }

    private void send(StringBuilder sb, int level) {
        send(sb, level, null);
    }

    /** @param sd the structured data of rfc5424 targets, or null */
    private void send(StringBuilder sb, int level, String sd) {
        byte[] text = new byte[Math.min(sb.length(), process.lineLimit())];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) sb.charAt(i);
        }
        process.sender().offer(new LogMessage(targets, tag, level, LogDates.nowMicros(), text, sd, false));
    }

    private static void address(StringBuilder sb, SocketAddress a) {
        if (a instanceof InetSocketAddress in) {
            sb.append(LogText.ip(in)).append(':').append(in.getPort());
        } else {
            sb.append("unix:");
        }
    }
}
