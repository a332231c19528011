package io.fulcrum.stream;

import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;

/**
 * The request's bytes as sent to the server, kept for a layer-7 retry ({@code retry-on} beyond conn-failure): views
 * retained on the buffers that go out, at most a buffer's worth ({@code tune.bufsize}, as HAProxy copies the
 * request into one buffer). A request longer than that is never replayed.
 */
final class RequestReplay {
    private final int limit;
    private final ArrayDeque<ByteBuf> kept = new ArrayDeque<>();
    private int size;
    private boolean overflow;

    RequestReplay(int limit) {
        this.limit = limit;
    }

    /** {@code b} goes to the server (its readable bytes, from now). */
    void keep(ByteBuf b) {
        if (overflow) {
            return;
        }
        size += b.readableBytes();
        if (size > limit) {
            overflow = true;
            release();
            return;
        }
        kept.add(b.retainedDuplicate());
    }

    /** The whole request is here: it may be sent again. */
    boolean usable() {
        return !overflow;
    }

    /** Queues the request again into {@code out} (it stays kept for another retry). */
    void replayInto(ArrayDeque<ByteBuf> out) {
        for (ByteBuf b : kept) {
            out.add(b.retainedDuplicate());
        }
    }

    void release() {
        ByteBuf b;
        while ((b = kept.poll()) != null) {
            b.release();
        }
    }
}
