package io.fulcrum.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/** TODO(helper-6): placeholder until the byte-exact built-in pages land; same API. */
public final class ErrorPages {
    private ErrorPages() {
    }

    public static ByteBuf builtin(int status) {
        String body = "<html><body><h1>" + status + "</h1></body></html>\n";
        return Unpooled.copiedBuffer("HTTP/1.1 " + status + " Error\r\ncontent-length: " + body.length()
                + "\r\ncache-control: no-cache\r\ncontent-type: text/html\r\nconnection: close\r\n\r\n" + body, StandardCharsets.ISO_8859_1);
    }
}
