package io.fulcrum.mux.h1;

import io.fulcrum.http.HeadReader;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.netty.buffer.ByteBuf;

/**
 * The request head a TCP stream's held bytes start with, read by a parser of its own over a view (the bytes stay as
 * they are for the rules and the server), under the process's limits: a head larger than tune.bufsize never
 * completes, a head the parser refuses is not HTTP, as in HAProxy.
 */
public final class H1HeadReader implements HeadReader {
    private final H1Limits limits;

    public H1HeadReader(H1Limits limits) {
        this.limits = limits;
    }

    @Override
    public Held read(ByteBuf bytes) {
        if (!methodSoFar(bytes)) {
            return Held.NOT_HTTP;
        }
        HeadSeen sink = new HeadSeen();
        try {
            new H1Parser(H1Parser.Kind.REQUEST, limits, false).parse(bytes.duplicate(), sink);
        } catch (H1Exception e) {
            return Held.NOT_HTTP;
        }
        return sink.head != null ? new Held(sink.head, false) : Held.INCOMPLETE;
    }

    /**
     * Whether the bytes up to the first space may start a request: HAProxy's parser fails at the first byte that
     * cannot be in a method (a TLS hello's first one), where ours waits for the end of the line to read it.
     */
    private static boolean methodSoFar(ByteBuf b) {
        int i = b.readerIndex();
        int end = b.writerIndex();
        while (i < end && (b.getByte(i) == '\r' || b.getByte(i) == '\n')) {
            i++; // empty lines before a request are allowed
        }
        for (; i < end; i++) {
            byte c = b.getByte(i);
            if (c == ' ') {
                return true;
            }
            if (!Chars.is(c, Chars.TOKEN)) {
                return false;
            }
        }
        return true;
    }

    /** Keeps the head; body bytes are not wanted. */
    private static final class HeadSeen implements MessageSink {
        RequestHead head;

        @Override
        public void head(HttpHead h) {
            head = (RequestHead) h;
        }

        @Override
        public void data(ByteBuf data) {
            data.release();
        }

        @Override
        public void trailers(HttpHeaders trailers) {
        }

        @Override
        public void end() {
        }
    }
}
