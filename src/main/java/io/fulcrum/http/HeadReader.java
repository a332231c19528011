package io.fulcrum.http;

import io.netty.buffer.ByteBuf;

/**
 * Reads the HTTP/1 request head that bytes held in a TCP stream start with, as HAProxy parses its buffer for the HTTP
 * fetches of a mode tcp frontend. Implemented by the HTTP/1 parser; the bytes are left as they are.
 */
@FunctionalInterface
public interface HeadReader {

    /** What {@code bytes} start with. */
    Held read(ByteBuf bytes);

    /** A whole head, or none: {@code incomplete} when more bytes may still complete one. */
    record Held(RequestHead head, boolean incomplete) {
        public static final Held NOT_HTTP = new Held(null, false);
        public static final Held INCOMPLETE = new Held(null, true);
    }
}
