package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;

/**
 * An incremental HTTP/1.x parser of requests or responses, at least as strict as HAProxy 2.6 where framing is
 * concerned (docs/http1-strictness.md lists where it is stricter, and why). Feed it bytes as they come: it
 * consumes what it can, keeps its place between calls (any split of the input gives the same calls), and
 * returns when it needs more bytes or right after a message's {@link MessageSink#end()}, so that the caller
 * decides when to read a pipelined next message. Heads are copied once into the array their headers index;
 * body bytes are passed on as retained slices of the input, never copied.
 *
 * <p>A response parser must be told, before each response, what request it answers ({@link #responseTo}).
 * An interim (1xx) response gives a {@link MessageSink#head} but no end: the final response follows. After a
 * 101 or a 2xx to CONNECT, the connection is a tunnel: the parser stops consuming ({@link #tunnel()}).
 * After an {@link H1Exception} the parser is unusable: the connection is to be closed.
 */
public final class H1Parser {

    public enum Kind { REQUEST, RESPONSE }

    private enum State { HEAD, FIXED, CHUNK_SIZE, CHUNK_DATA, CHUNK_CRLF, TRAILERS, UNTIL_CLOSE, DONE, FAILED }

    private final Kind kind;
    private final H1Limits limits;
    private final boolean acceptInvalid;
    private final int errorStatus;
    private final boolean lenientLf;
    private final int maxChunkLine;
    private final StartLine line;
    private final SectionReader.StartLineParser startLine;
    private final SectionReader head;
    private final SectionReader trailers;

    private State state = State.HEAD;
    /** Where the last {@link H1Exception} was thrown, for {@link #capture}. */
    private State failedIn;
    /** Body bytes left in the message (FIXED) or in the chunk (CHUNK_DATA). */
    private long remaining;
    /** The message offset of the input's reader index, once the head is read (for error positions). */
    private long offset;
    /** CHUNK_SIZE: bytes after the reader index already scanned, with no LF among them. */
    private int scanned;
    /** A 1xx was read: the final response to the same request comes next. */
    private boolean interim;
    private boolean tunnelAfter;
    private boolean headRequest;
    private boolean connectRequest;
    /** What accept-invalid let through in the last head, or null. */
    private H1Exception relaxed;

    /**
     * {@code acceptInvalid}: what {@code option accept-invalid-http-request} (or {@code -response}) relaxes,
     * plus lone LFs as line ends in requests (HAProxy takes them always; Fulcrum only then).
     */
    public H1Parser(Kind kind, H1Limits limits, boolean acceptInvalid) {
        this.kind = kind;
        this.limits = limits;
        this.acceptInvalid = acceptInvalid;
        boolean request = kind == Kind.REQUEST;
        this.errorStatus = request ? 400 : 502;
        this.lenientLf = acceptInvalid || !request;
        this.maxChunkLine = limits.maxHead();
        this.line = new StartLine(acceptInvalid);
        this.startLine = request ? line::request : (b, off, end, pos) -> {
            line.response(b, off, end, pos);
            return false;
        };
        this.head = new SectionReader(true, limits, errorStatus, lenientLf, acceptInvalid);
        this.trailers = new SectionReader(false, limits, errorStatus, lenientLf, acceptInvalid);
    }

    /**
     * For a response parser: the request that the next response answers (a HEAD's response has no body, a
     * 2xx to CONNECT opens a tunnel). Call it before each response's head is complete; without it, a GET is
     * assumed.
     */
    public void responseTo(RequestHead request) {
        if (kind != Kind.RESPONSE) {
            throw new IllegalStateException("responseTo is for a response parser");
        }
        headRequest = request.isHead();
        connectRequest = request.isConnect();
    }

    /**
     * In {@link MessageSink#head} of a chunked message: the error that the body bytes already in {@code input} (after
     * the head) hold, or null; {@code input} and this parser are left as they are. HAProxy parses all it has
     * received before it starts a transaction, so that a bad chunk in the head's packet makes a bad request rather
     * than a transaction that fails. A parser of its own reads a view of the bytes, up to the end of the message.
     */
    public H1Exception chunkedBodyError(ByteBuf input) {
        H1Parser probe = probe(HttpHead.CHUNKED);
        try {
            probe.parse(input.duplicate(), DISCARD);
            return null;
        } catch (H1Exception e) {
            return e;
        }
    }

    /**
     * In {@link MessageSink#head}: the body's HTX data (payload, trailers, end of a chunked body) that the bytes already
     * in {@code input} hold and that HAProxy's response buffer takes along with the head ({@code head.htxSize()} of it,
     * within {@code tune.bufsize - tune.maxrewrite}, a data block's header aside). It is what HAProxy's
     * {@code option logasap} counts in %B besides the head. {@code input} and this parser are left as they are.
     */
    public long bodyDataWithHead(ByteBuf input, HttpHead h) {
        if (h.bodyLength() == HttpHead.NO_BODY || !input.isReadable()) {
            return 0;
        }
        long[] data = {0};
        MessageSink counter = new MessageSink() {
            @Override
            public void head(HttpHead ignored) {
            }

            @Override
            public void data(ByteBuf bytes) {
                data[0] += bytes.readableBytes();
                bytes.release();
            }

            @Override
            public void trailers(HttpHeaders fields) {
                data[0] += fields.htxData();
            }

            @Override
            public void end() {
                data[0] += h.bodyLength() == HttpHead.CHUNKED ? HttpHead.HTX_END : 0;
            }
        };
        try {
            probe(h.bodyLength()).parse(input.duplicate(), counter);
        } catch (H1Exception e) {
            // what came before the error counts
        }
        long room = limits.bufsize() - limits.maxrewrite() - h.htxSize() - HttpHead.HTX_BLOCK;
        return Math.max(0, Math.min(data[0], room));
    }

    /** A parser of its own for the body after the head just read, whose length is {@code bodyLength}. */
    private H1Parser probe(long bodyLength) {
        H1Parser probe = new H1Parser(kind, limits, acceptInvalid);
        probe.offset = offset;
        if (bodyLength == HttpHead.CHUNKED) {
            probe.state = State.CHUNK_SIZE;
        } else if (bodyLength == HttpHead.UNTIL_CLOSE) {
            probe.state = State.UNTIL_CLOSE;
        } else {
            probe.state = State.FIXED;
            probe.remaining = bodyLength;
        }
        return probe;
    }

    /** Drops what a probe finds. */
    private static final MessageSink DISCARD = head -> {
    };

    /** Consumes what it can of {@code in}, telling {@code sink} what it finds (see the class comment). */
    public void parse(ByteBuf in, MessageSink sink) throws H1Exception {
        try {
            while (step(in, sink)) {
                // until more bytes are needed or a message ended
            }
        } catch (H1Exception e) {
            failedIn = state;
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * What {@code show errors} keeps of the message after {@link #parse} threw: a copy of its bytes from the
     * start of the section being read (the head, the trailers) or, in a body, from the input's reader index, at
     * most {@code max} of them. Called on the error path only.
     */
    /**
     * In {@link MessageSink#head}: what {@code option accept-invalid-http-request/response} let through in this head
     * (the first position), or null; HAProxy still keeps such a message for {@code show errors}.
     */
    public H1Exception relaxed() {
        return relaxed;
    }

    /** In {@link MessageSink#head}: the head's bytes for {@code show errors}, as {@link #capture} takes them. */
    public H1Capture headCapture(ByteBuf input, int max) {
        return head.capture(input, max);
    }

    public H1Capture capture(ByteBuf input, int max) {
        return switch (failedIn) {
            case HEAD -> head.capture(input, max);
            case TRAILERS -> trailers.capture(input, max);
            case null -> throw new IllegalStateException("the parser did not fail");
            default -> {
                int n = input == null ? 0 : Math.min(max, input.readableBytes());
                byte[] b = new byte[n];
                if (n > 0) {
                    input.getBytes(input.readerIndex(), b);
                }
                yield new H1Capture(offset, b);
            }
        };
    }

    /**
     * The peer closed its side: ends a body that lasts until then; nothing between two messages; an
     * {@link H1Exception} if a message was cut.
     */
    public void closed(MessageSink sink) throws H1Exception {
        switch (state) {
            case UNTIL_CLOSE -> {
                state = State.DONE;
                sink.end();
            }
            case HEAD -> {
                if (!between()) {
                    state = State.FAILED;
                    throw new H1Exception(errorStatus, "connection closed in a message head", head.seen());
                }
                state = State.DONE;
            }
            case DONE, FAILED -> {
            }
            default -> {
                state = State.FAILED;
                throw new H1Exception(errorStatus, "connection closed in a message body", offset);
            }
        }
    }

    /** True when no byte of a next message has been seen yet (empty lines before a request do not count). */
    public boolean between() {
        return state == State.HEAD && !interim && head.untouched();
    }

    /** True after a 101 or a 2xx to CONNECT: what follows is no longer HTTP, the parser consumes nothing. */
    public boolean tunnel() {
        return state == State.DONE && tunnelAfter;
    }

    /** One step; false when more bytes are needed or the message ended. */
    private boolean step(ByteBuf in, MessageSink sink) throws H1Exception {
        return switch (state) {
            case HEAD -> head(in, sink);
            case FIXED, CHUNK_DATA -> data(in, sink);
            case CHUNK_SIZE -> chunkSize(in);
            case CHUNK_CRLF -> chunkEnd(in);
            case TRAILERS -> trailers(in, sink);
            case UNTIL_CLOSE -> {
                if (in.isReadable()) {
                    sink.data(in.readRetainedSlice(in.readableBytes()));
                }
                yield false;
            }
            case DONE -> false;
            case FAILED -> throw new IllegalStateException("the parser failed on an earlier message");
        };
    }

    private boolean head(ByteBuf in, MessageSink sink) throws H1Exception {
        if (!head.read(in, startLine)) {
            return false;
        }
        offset = head.end();
        long at = head.relaxedAt() < 0 ? line.relaxedAt
                : line.relaxedAt < 0 ? head.relaxedAt() : Math.min(line.relaxedAt, head.relaxedAt());
        relaxed = at < 0 ? null : new H1Exception(errorStatus, "accepted by accept-invalid-http-*", at);
        HttpHead h;
        if (kind == Kind.REQUEST) {
            h = HeadRules.request(head, line);
            if (!limits.payloadWithAnyMethod() && h.version() == 10 && h.bodyLength() != HttpHead.NO_BODY
                    && HeadRules.bodilessIn10(((RequestHead) h).method())) {
                // As HAProxy: HTTP/1.0 servers may not look for the body of these and read it as the next request.
                throw new H1Exception(413, "payload in an HTTP/1.0 GET, HEAD or DELETE request", offset);
            }
        } else {
            h = HeadRules.response(head, line, headRequest, connectRequest);
            int status = ((ResponseHead) h).status();
            if (status / 100 == 1 && status != 101) {
                interim = true;
                head.reset(0);
                sink.head(h);
                return true;
            }
            tunnelAfter = status == 101 || connectRequest && status / 100 == 2;
        }
        long length = h.bodyLength();
        if (length != HttpHead.NO_BODY) {
            // (a chunked body counted with its framing: near enough for where a rewrite stops fitting)
            h.bodyBuffered(length > 0 ? Math.min(length, in.readableBytes()) : in.readableBytes(), limits.maxHead());
        }
        sink.head(h);
        if (length == HttpHead.NO_BODY) {
            return end(sink);
        }
        if (length == HttpHead.CHUNKED) {
            state = State.CHUNK_SIZE;
            scanned = 0;
        } else if (length == HttpHead.UNTIL_CLOSE) {
            state = State.UNTIL_CLOSE;
        } else {
            state = State.FIXED;
            remaining = length;
        }
        return true;
    }

    private boolean data(ByteBuf in, MessageSink sink) {
        int n = (int) Math.min(remaining, in.readableBytes());
        if (n == 0) {
            return false;
        }
        sink.data(in.readRetainedSlice(n));
        offset += n;
        remaining -= n;
        if (remaining > 0) {
            return false;
        }
        if (state == State.FIXED) {
            return end(sink);
        }
        state = State.CHUNK_CRLF;
        return true;
    }

    private boolean chunkSize(ByteBuf in) throws H1Exception {
        int r = in.readerIndex();
        int lf = in.indexOf(r + scanned, in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            scanned = in.readableBytes();
            if (scanned > maxChunkLine) {
                throw new H1Exception(errorStatus, "chunk size line too long", offset);
            }
            return false;
        }
        long size = ChunkLine.size(in, r, lf, lenientLf, errorStatus, offset);
        in.readerIndex(lf + 1);
        offset += lf + 1 - r;
        scanned = 0;
        if (size == 0) {
            state = State.TRAILERS;
            trailers.reset(offset);
        } else {
            state = State.CHUNK_DATA;
            remaining = size;
        }
        return true;
    }

    /** The CRLF after a chunk's data. */
    private boolean chunkEnd(ByteBuf in) throws H1Exception {
        if (!in.isReadable()) {
            return false;
        }
        int r = in.readerIndex();
        byte c = in.getByte(r);
        int n = 1;
        if (c == '\r') {
            if (in.readableBytes() < 2) {
                return false;
            }
            if (in.getByte(r + 1) != '\n') {
                throw new H1Exception(errorStatus, "no CRLF after chunk data", offset + 1);
            }
            n = 2;
        } else if (c != '\n' || !lenientLf) {
            throw new H1Exception(errorStatus, c == '\n' ? "bare LF after chunk data" : "no CRLF after chunk data",
                    offset);
        }
        in.skipBytes(n);
        offset += n;
        state = State.CHUNK_SIZE;
        return true;
    }

    private boolean trailers(ByteBuf in, MessageSink sink) throws H1Exception {
        if (!trailers.read(in, null)) {
            return false;
        }
        if (trailers.fields() > 0) {
            sink.trailers(HeadRules.trailers(trailers));
        }
        return end(sink);
    }

    private boolean end(MessageSink sink) {
        if (kind == Kind.RESPONSE && tunnelAfter) {
            state = State.DONE;
        } else {
            state = State.HEAD;
            head.reset(0);
        }
        interim = false;
        headRequest = false;
        connectRequest = false;
        sink.end();
        return false;
    }
}
