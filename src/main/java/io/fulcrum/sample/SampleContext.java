package io.fulcrum.sample;

import io.fulcrum.backend.Backend;
import io.fulcrum.cfg.Source;
import io.fulcrum.compression.Algo;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Server;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.net.SocketAddress;
import java.util.concurrent.CompletionStage;

/**
 * What a fetch can look at while a rule, a routing decision or a log line is evaluated: the
 * connection, the proxies and server in play, the HTTP messages, and the variables. A stream
 * implements it; parts that do not exist (yet) are null. The default methods are what a stream does
 * not have to provide: they answer "unknown" (null, 0, false) and the fetches using them then find no
 * sample, or give HAProxy's value for a stream that never did what they report.
 */
public interface SampleContext {

    /** The client's address (as the PROXY protocol announced it, if it was used). */
    SocketAddress source();

    /** The address the client connected to (as the PROXY protocol announced it, if it was used). */
    SocketAddress destination();

    /** The client connection, or null. */
    Channel frontChannel();

    /**
     * The addresses that {@code set-src}/{@code set-dst} rules rewrite where they run (the session's in connection
     * and session rules, the stream's own copy in content and HTTP rules), or null where there are none.
     */
    default Endpoints endpoints() {
        return null;
    }

    /** The client connection's own source address ({@code fc_src}): only tcp-request connection rules change it. */
    default SocketAddress connectionSource() {
        Channel c = frontChannel();
        return c == null ? source() : Endpoints.of(c).connectionSource();
    }

    /** The client connection's own destination address ({@code fc_dst}). */
    default SocketAddress connectionDestination() {
        Channel c = frontChannel();
        return c == null ? destination() : Endpoints.of(c).connectionDestination();
    }

    Frontend frontend();

    /** The backend, once chosen. */
    Backend backend();

    /** The server, once chosen. */
    Server server();

    /** The HTTP request, in mode http. */
    RequestHead request();

    /**
     * In a TCP stream, the HTTP/1 request head the bytes held by {@code tcp-request content} rules start with, parsed
     * as HAProxy parses its buffer there; null when there is none. While more bytes may complete a head, the rule
     * being evaluated waits for them ({@link #contentMissing()}).
     */
    default RequestHead heldRequest() {
        return null;
    }

    /** The request the HTTP fetches read: the transaction's, else the one held in a TCP stream. */
    default RequestHead httpRequest() {
        RequestHead r = request();
        return r != null ? r : heldRequest();
    }

    /** The HTTP response, once its head arrived. */
    ResponseHead response();

    /** The name of the cache that answers the request ({@code res.cache_name}), or null. */
    default String cacheName() {
        return null;
    }

    /** The variables of {@code scope} (proc variables are global). */
    Vars vars(VarScope scope);

    /** The status of the response sent or being sent (the server's or Fulcrum's own), or -1. */
    default int status() {
        ResponseHead r = response();
        return r == null ? -1 : r.status();
    }

    /**
     * True while response rules (or anything evaluated on the response's way) run: the fetches that serve
     * both directions, {@code hdr} and {@code cookie}, then read the response. Logs read the request.
     */
    default boolean responseSide() {
        return false;
    }

    /**
     * The backend named {@code name}, for fetches that name one ({@code be_conn(app)}, {@code srv_conn(app/s1)});
     * null when there is none: any backend of the running process, found through the frontend.
     */
    default Backend backend(String name) {
        Backend b = backend();
        if (b != null && b.name().equals(name)) {
            return b;
        }
        Frontend f = frontend();
        if (f != null && f.process() != null) {
            return f.process().backends().get(name);
        }
        b = f == null ? null : f.defaultBackend();
        return b != null && b.name().equals(name) ? b : null;
    }

    /** The frontend named {@code name} ({@code fe_conn(web)}); null when there is none: any of the process. */
    default Frontend frontend(String name) {
        Frontend f = frontend();
        if (f != null && f.name().equals(name)) {
            return f;
        }
        if (f != null && f.process() != null) {
            return f.process().frontends().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        }
        return null;
    }

    /** The listening socket the client connected to, or null. */
    default Listener listener() {
        Channel c = frontChannel();
        return c == null ? null : Listener.of(c);
    }

    /** The connection to the server, once open, or null. */
    default Channel backChannel() {
        return null;
    }

    /** True when the client connection started with a PROXY protocol header ({@code accept-proxy}). */
    default boolean proxyHeaderReceived() {
        Channel c = frontChannel();
        return c != null && Endpoints.of(c).fromProxyHeader();
    }

    /**
     * The server ({@code tunnel} false) or tunnel timeout the stream applies now, in ms, as cur_server_timeout
     * reads it; -1 when there is no such stream.
     */
    default long currentTimeout(boolean tunnel) {
        return -1;
    }

    /**
     * The stream's priority in the queues ({@code offset} false: its class; true: its offset in ms), 0 unless a
     * set-priority-class/offset rule set it.
     */
    default long priority(boolean offset) {
        return 0;
    }

    /** Sets the stream's priority class or offset (already within HAProxy's bounds); ignored outside a stream. */
    default void priority(boolean offset, long value) {
    }

    /** The place of the request on its client connection: 1 for the first one; 0 when unknown. */
    default long requestNumber() {
        return 0;
    }

    /**
     * The request body received so far (all of it with {@code option http-buffer-request}), as a view that
     * the caller neither keeps nor releases; null when the stream holds none.
     */
    default ByteBuf requestBody() {
        return null;
    }

    /** The algorithm compressing the response ({@code res.comp}), or null. */
    default Algo compressedWith() {
        return null;
    }

    /**
     * The size of the HTTP request as HAProxy's request buffer holds it in HTTP mode ({@code req.len}): its head's HTX
     * data (start line, fields, end of headers) and the body held so far, with the end of a chunked body and its
     * trailers once in; -1 when the stream holds no HTTP request.
     */
    default long requestHtxData() {
        return -1;
    }

    /** The response body received so far, as {@link #requestBody()}. */
    default ByteBuf responseBody() {
        return null;
    }

    /**
     * The request bytes received and not forwarded yet, while {@code tcp-request content} rules inspect them,
     * as a view that the caller neither keeps nor releases; null when the stream holds none.
     */
    default ByteBuf requestContent() {
        return null;
    }

    /** The response bytes held while {@code tcp-response content} rules inspect them, as {@link #requestContent()}. */
    default ByteBuf responseContent() {
        return null;
    }

    /**
     * True while {@code tcp-request content} or {@code tcp-response content} rules may still wait for more
     * data (the inspect delay has not expired): {@code wait_end} has no sample then.
     */
    default boolean awaitingContent() {
        return false;
    }

    /**
     * Whether a rule may wait for something else than data ({@code do-resolve}'s answer, {@link #resumeWhen}): HTTP
     * request rules may; {@code tcp-request content} rules while their inspect delay runs, as in HAProxy, where the
     * rules' last evaluation lets nothing yield.
     */
    default boolean mayWait() {
        return false;
    }

    /**
     * A rule returned {@code WAIT} for {@code done} ({@link #mayWait()} said it could): the rules run again once it
     * completes, on the transaction's loop.
     */
    default void resumeWhen(CompletionStage<?> done) {
        throw new IllegalStateException("no rule may wait here");
    }

    /** While the rules run again after {@link #resumeWhen}: what they waited for, completed; else null. */
    default CompletionStage<?> resumed() {
        return null;
    }

    /**
     * A fetch lacked content bytes that may still arrive ({@link #awaitingContent()}): the content rule being evaluated
     * waits for more, as HAProxy's rules do on a sample that "may change".
     */
    default void contentMissing() {
    }

    /** The transaction's unique id ({@code unique-id-format}), or null when there is none. */
    default CharSequence uniqueId() {
        return null;
    }

    /**
     * Notes {@code rule} as the last one that gave a final verdict and returns the one noted before (null when none);
     * contexts without a stream keep nothing.
     */
    default Source finalRule(Source rule) {
        return null;
    }

    /** The file of the last rule that gave a final verdict (accept, deny...), or null. */
    default String lastRuleFile() {
        return null;
    }

    /** The line of the last rule that gave a final verdict, or 0. */
    default int lastRuleLine() {
        return 0;
    }

    /** The events handled so far for the stream (HAProxy's task calls, cpu_calls); -1 without a stream. */
    default long streamCalls() {
        return -1;
    }

    /** True once the process is stopping (soft stop). */
    default boolean stopping() {
        Frontend f = frontend();
        return f != null && f.process() != null && f.process().stopping();
    }
}
