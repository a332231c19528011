package io.fulcrum.http;

import io.fulcrum.mux.h1.H1Exception;
import io.fulcrum.mux.h1.H1Limits;
import io.fulcrum.mux.h1.H1Parser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/** Request and response heads parsed from their HTTP/1 text by the real parser, for tests. */
final class Messages {
    private Messages() {
    }

    /** The head of {@code text}, a request ("GET / HTTP/1.1\r\n...") with its empty line. */
    static RequestHead request(String text) {
        return (RequestHead) parse(new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, false), text);
    }

    /** The head of {@code text}, a response to a GET. */
    static ResponseHead response(String text) {
        return (ResponseHead) parse(new H1Parser(H1Parser.Kind.RESPONSE, H1Limits.DEFAULT, false), text);
    }

    private static HttpHead parse(H1Parser parser, String text) {
        HttpHead[] head = new HttpHead[1];
        ByteBuf in = Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
        try {
            parser.parse(in, h -> head[0] = h);
        } catch (H1Exception e) {
            throw new IllegalArgumentException(e);
        } finally {
            in.release();
        }
        if (head[0] == null) {
            throw new IllegalArgumentException("incomplete head: " + text);
        }
        return head[0];
    }
}
