package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.buffer.ByteBuf;

/**
 * {@code req.proto_http} (the predefined ACL {@code HTTP}): true in an HTTP stream; in a TCP stream, true once the
 * bytes held by {@code tcp-request content} rules hold a whole HTTP/1 request head, as HAProxy parses them there
 * (a head still incomplete makes the rule wait while the inspect delay runs; bytes that are not HTTP/1 are false).
 */
final class ProtoHttpFetch {
    private ProtoHttpFetch() {
    }

    static void register(SampleCatalog c) {
        Fetch f = new Fetch("req.proto_http", ArgSpec.NONE, SampleType.BOOL, Source.HRQHP, (a, ctx, out) -> {
            if (ctx.request() != null) {
                return out.setBool(true);
            }
            return speaksHttp(ctx) && out.setBool(true);
        });
        c.fetch(f);
        c.fetch(f.named("req_proto_http"));
    }

    private static boolean speaksHttp(SampleContext ctx) {
        ByteBuf content = ctx.requestContent();
        if (content == null || !methodSoFar(content)) {
            return false;
        }
        HeadSeen sink = new HeadSeen();
        try {
            // A parser of its own over a view: the held bytes stay as they are for the rules and the server.
            new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, false).parse(content.duplicate(), sink);
        } catch (H1Exception e) {
            return false;
        }
        if (!sink.head && ctx.awaitingContent()) {
            ctx.contentMissing();
        }
        return sink.head;
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

    /** Notes that a head was read; body bytes are not wanted. */
    private static final class HeadSeen implements MessageSink {
        boolean head;

        @Override
        public void head(HttpHead h) {
            head = true;
        }
    }
}
