package io.fulcrum.stream;

import io.fulcrum.http.HttpHeaders;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The body that arrives while a {@code wait-for-body} rule holds the request (or response) rules: kept (for the rules
 * after it, {@code req.body}, {@code res.body}) until the rules are done, then forwarded as if it had just arrived. The
 * wait has a deadline (then HAProxy's 408, or 504 for a response), and ends once the body is in, or {@code at-least}
 * bytes are, or the buffer is full.
 */
final class HeldBody {
    private final ByteBufAllocator alloc;
    private final int room;
    private CompositeByteBuf body;
    private HttpHeaders trailers;
    private boolean ended;
    /** The client closed before the end: nothing more comes, the wait is over. */
    private boolean cut;
    /** System.nanoTime() when the wait fails, or 0 while no rule waits. */
    private long deadline;

    /** @param room the most the request may hold (the buffer, {@code tune.bufsize - tune.maxrewrite}) */
    HeldBody(ByteBufAllocator alloc, int room) {
        this.alloc = alloc;
        this.room = room;
    }

    /**
     * True once the body is in as the rule wants it ({@code hasBody}: the request has one); else the wait starts (or
     * goes on) and false.
     */
    boolean satisfied(boolean hasBody, long millis, long atLeast) {
        long held = bytes();
        if (!hasBody || ended || cut || atLeast > 0 && held >= atLeast || held >= room) {
            deadline = 0;
            return true;
        }
        if (deadline == 0) {
            deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, millis));
        }
        return false;
    }

    /** The client closed: the wait ends with what came. */
    void cut() {
        cut = true;
    }

    boolean waiting() {
        return deadline != 0;
    }

    long deadline() {
        return deadline;
    }

    boolean expired(long now) {
        return deadline != 0 && now - deadline >= 0;
    }

    /** Keeps body bytes that arrived during the wait; this object owns them. */
    void hold(ByteBuf data) {
        if (body == null) {
            body = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        body.addComponent(true, data);
    }

    void holdTrailers(HttpHeaders t) {
        trailers = t;
    }

    void holdEnd() {
        ended = true;
    }

    /**
     * The body held so far, as a view, or null while none came; empty once the message ended without any (a chunked
     * body of no chunk: HAProxy's res.body is then empty, its res.body_len 0).
     */
    ByteBuf body() {
        return body == null && ended ? Unpooled.EMPTY_BUFFER : body;
    }

    long bytes() {
        return body == null ? 0 : body.readableBytes();
    }

    /** Hands the held body over (the caller owns it), or null. */
    ByteBuf takeBody() {
        ByteBuf b = body;
        body = null;
        return b;
    }

    HttpHeaders trailers() {
        return trailers;
    }

    boolean ended() {
        return ended;
    }

    /** Hands what was held on, in order, to the stream's handlers of a message's parts; this object keeps nothing. */
    void replay(Consumer<ByteBuf> data, Consumer<HttpHeaders> trailersTo, Runnable end) {
        ByteBuf b = takeBody();
        if (b != null) {
            data.accept(b);
        }
        if (trailers != null) {
            trailersTo.accept(trailers);
        }
        if (ended) {
            end.run();
        }
    }

    /** Gives up: the transaction is over. */
    void release() {
        deadline = 0;
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
