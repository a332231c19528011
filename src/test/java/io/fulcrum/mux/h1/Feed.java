package io.fulcrum.mux.h1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * Feeds a parser as a connection does: pieces of input as they arrive, the bytes not consumed kept in front of the
 * next piece, parse() called again after each message (pipelining) until it makes no progress.
 */
final class Feed {
    private final H1Parser parser;
    private final Recorder sink;
    private final int maxMessages;
    private ByteBuf input;

    Feed(H1Parser parser, Recorder sink) {
        this(parser, sink, Integer.MAX_VALUE);
    }

    /** A feed that stops parsing after {@code maxMessages} messages (what follows stays in the input). */
    Feed(H1Parser parser, Recorder sink, int maxMessages) {
        this.parser = parser;
        this.sink = sink;
        this.maxMessages = maxMessages;
    }

    /** Parses the whole of {@code raw} (ISO-8859-1) in one piece, then tells the parser the peer closed. */
    static Recorder all(H1Parser parser, String raw) throws H1Exception {
        Recorder r = new Recorder();
        Feed feed = new Feed(parser, r);
        try {
            feed.add(raw.getBytes(StandardCharsets.ISO_8859_1));
            feed.close();
        } finally {
            feed.release();
        }
        return r;
    }

    void add(byte[] piece) throws H1Exception {
        ByteBuf in = Unpooled.wrappedBuffer(piece);
        if (input == null || !input.isReadable()) {
            release();
            input = in;
        } else {
            ByteBuf merged = Unpooled.buffer(input.readableBytes() + in.readableBytes());
            merged.writeBytes(input).writeBytes(in);
            input.release();
            in.release();
            input = merged;
        }
        for (int before = -1; input.readerIndex() != before && !parser.tunnel() && sink.ends < maxMessages; ) {
            before = input.readerIndex();
            parser.parse(input, sink);
        }
    }

    /** What {@code show errors} keeps after the parser refused the input. */
    H1Capture capture(int max) {
        return parser.capture(input, max);
    }

    /** The peer closed (after the last message this feed parses, nothing is left to end). */
    void close() throws H1Exception {
        if (sink.ends < maxMessages) {
            parser.closed(sink);
        }
    }

    /** Bytes not consumed. */
    int left() {
        return input == null ? 0 : input.readableBytes();
    }

    void release() {
        if (input != null) {
            input.release();
            input = null;
        }
    }
}
