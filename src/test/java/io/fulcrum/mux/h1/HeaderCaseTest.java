package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static io.fulcrum.mux.h1.H1EncoderTest.text;
import static org.assertj.core.api.Assertions.assertThat;

class HeaderCaseTest {
    private static final HeaderCase CASE = new HeaderCase(Map.of("content-length", "Content-Length",
            "x-a", "X-A", "Connection", "CONNECTION"));

    /** The fields the encoder writes itself too; a "from" that is not in lower case never matches (HAProxy's too). */
    @Test
    void namesOfAnEncodedHead() {
        HttpHeaders h = new HttpHeaders();
        h.add("x-a", "content-length: 1");
        h.add("connection", "close");
        ResponseHead head = new ResponseHead(11, 200, AsciiString.of("OK"), h);
        head.bodyLength(5);
        ByteBuf out = Unpooled.buffer();
        out.writeBytes("prefix".getBytes(StandardCharsets.ISO_8859_1));
        H1Encoder.writeHead(head, out, CASE);
        assertThat(text(out)).isEqualTo("prefixHTTP/1.1 200 OK\r\nX-A: content-length: 1\r\nconnection: close\r\n"
                + "Content-Length: 5\r\n\r\n");
    }

    @Test
    void trailers() {
        HttpHeaders t = new HttpHeaders();
        t.add("x-a", "1");
        t.add("x-b", "2");
        assertThat(text(H1Encoder.lastChunk(t, ByteBufAllocator.DEFAULT, CASE))).isEqualTo("0\r\nX-A: 1\r\nx-b: 2\r\n\r\n");
    }

    /** A whole message (the proxy's pages): its head only, in a copy; the body is left alone. */
    @Test
    void messages() {
        ByteBuf page = Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\nx-a: b\n", StandardCharsets.ISO_8859_1);
        assertThat(text(CASE.adjusted(page.retainedDuplicate(), ByteBufAllocator.DEFAULT)))
                .isEqualTo("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nx-a: b\n");
        assertThat(page.toString(StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200 OK\r\ncontent-length");
        ByteBuf same = page.retainedDuplicate();
        assertThat(HeaderCase.NONE.adjusted(same, ByteBufAllocator.DEFAULT)).isSameAs(same);
        same.release();
        page.release();
        assertThat(CASE.when(false)).isSameAs(HeaderCase.NONE);
        assertThat(CASE.when(true)).isSameAs(CASE);
    }
}
