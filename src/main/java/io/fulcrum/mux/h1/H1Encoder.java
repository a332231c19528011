package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * Writes heads in HTTP/1 form and frames bodies. The framing fields come from {@link HttpHead#bodyLength()},
 * never from the headers: a length gives Content-Length, {@link HttpHead#CHUNKED} gives
 * {@code Transfer-Encoding: chunked}, {@link HttpHead#UNTIL_CLOSE} gives neither (the body ends when the
 * connection closes: what an HTTP/1.0 peer gets instead of chunks; set it before writing the head). A head
 * without a body ({@link HttpHead#NO_BODY}) keeps its Content-Length field as it is: it describes the body a
 * GET would have had (HEAD, 304) or is a zero length. Chunked bodies are re-framed without copying their
 * data: {@link #chunkHeader}, the data slice as it came, {@link #crlf()}; then {@link #lastChunk}.
 */
public final class H1Encoder {
    private H1Encoder() {
    }

    private static final byte[] HTTP10 = {'H', 'T', 'T', 'P', '/', '1', '.', '0'};
    private static final byte[] HTTP11 = {'H', 'T', 'T', 'P', '/', '1', '.', '1'};
    private static final byte[] CONTENT_LENGTH = ascii("content-length: ");
    private static final byte[] CHUNKED = ascii("transfer-encoding: chunked\r\n");
    private static final ByteBuf CRLF = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}).asReadOnly());

    /**
     * Writes the start line, the fields present, the framing field and the empty line. The version is HTTP/1.1,
     * or HTTP/1.0 for an HTTP/1.0 message (as HAProxy: such a request may lack Host, which 1.1 requires).
     */
    public static void writeHead(HttpHead head, ByteBuf out) {
        byte[] version = head.version() == 10 ? HTTP10 : HTTP11;
        if (head instanceof RequestHead r) {
            ByteBufUtil.copy(r.method(), out);
            out.writeByte(' ');
            ByteBufUtil.copy(r.uri(), out);
            out.writeByte(' ').writeBytes(version);
        } else {
            ResponseHead r = (ResponseHead) head;
            out.writeBytes(version).writeByte(' ');
            ByteBufUtil.writeAscii(out, Integer.toString(r.status()));
            out.writeByte(' ');
            ByteBufUtil.copy(r.reason(), out);
        }
        out.writeByte('\r').writeByte('\n');
        long length = head.bodyLength();
        HttpHeaders headers = head.headers();
        for (int i = 0; i < headers.slots(); i++) {
            if (!headers.removed(i) && !headers.nameIs(i, "transfer-encoding")
                    && (length == HttpHead.NO_BODY || !headers.nameIs(i, "content-length"))) {
                headers.writeField(i, out);
            }
        }
        if (length == HttpHead.CHUNKED) {
            out.writeBytes(CHUNKED);
        } else if (length > 0) {
            out.writeBytes(CONTENT_LENGTH);
            ByteBufUtil.writeAscii(out, Long.toString(length));
            out.writeByte('\r').writeByte('\n');
        }
        out.writeByte('\r').writeByte('\n');
    }

    /** The bytes that open a chunk of {@code size} bytes: its size in hexadecimal and CRLF. */
    public static ByteBuf chunkHeader(int size, ByteBufAllocator alloc) {
        if (size <= 0) {
            throw new IllegalArgumentException("a chunk of " + size + " bytes");
        }
        ByteBuf b = alloc.buffer(10);
        ByteBufUtil.writeAscii(b, Integer.toHexString(size));
        return b.writeByte('\r').writeByte('\n');
    }

    /** The CRLF that closes a chunk's data: a shared read-only buffer (releasing it is harmless). */
    public static ByteBuf crlf() {
        return CRLF.duplicate();
    }

    /** The last chunk, the trailer fields if any ({@code null} for none), and the empty line that ends the body. */
    public static ByteBuf lastChunk(HttpHeaders trailers, ByteBufAllocator alloc) {
        int fields = trailers == null ? 0 : trailers.encodedLength();
        ByteBuf b = alloc.buffer(5 + fields);
        b.writeByte('0').writeByte('\r').writeByte('\n');
        if (trailers != null) {
            trailers.writeTo(b);
        }
        return b.writeByte('\r').writeByte('\n');
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
