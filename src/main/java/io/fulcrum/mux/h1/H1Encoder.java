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
 * without a body ({@link HttpHead#NO_BODY}) keeps its Content-Length and Transfer-Encoding fields as they are:
 * they describe the body a GET would have had (HEAD, 304) or are a zero length. Chunked bodies are re-framed without copying their
 * data: {@link #chunkHeader}, the data slice as it came, {@link #crlf()}; then {@link #lastChunk}.
 */
public final class H1Encoder {
    private H1Encoder() {
    }

    /** What ends a request line, and what starts a status line. */
    private static final byte[] REQUEST10 = ascii(" HTTP/1.0\r\n");
    private static final byte[] REQUEST11 = ascii(" HTTP/1.1\r\n");
    private static final byte[] STATUS10 = ascii("HTTP/1.0 ");
    private static final byte[] STATUS11 = ascii("HTTP/1.1 ");
    private static final byte[] CONTENT_LENGTH = ascii("content-length: ");
    private static final byte[] HEX = ascii("0123456789ABCDEF");
    /** CR and LF, as writeShort writes them (big-endian, as every ByteBuf writes). */
    private static final int CRLF_SHORT = '\r' << 8 | '\n';
    private static final byte[] CHUNKED = ascii("transfer-encoding: chunked\r\n");
    private static final ByteBuf CRLF = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}).asReadOnly());

    /**
     * Writes the start line, the fields present, the framing field and the empty line. The version is HTTP/1.1,
     * or HTTP/1.0 for an HTTP/1.0 message (as HAProxy: such a request may lack Host, which 1.1 requires).
     */
    public static void writeHead(HttpHead head, ByteBuf out) {
        boolean http10 = head.version() == 10;
        if (head instanceof RequestHead r) {
            ByteBufUtil.copy(r.method(), out);
            out.writeByte(' ');
            ByteBufUtil.copy(r.uri(), out);
            out.writeBytes(http10 ? REQUEST10 : REQUEST11);
        } else {
            ResponseHead r = (ResponseHead) head;
            out.writeBytes(http10 ? STATUS10 : STATUS11);
            writeDecimal(r.status(), out);
            out.writeByte(' ');
            ByteBufUtil.copy(r.reason(), out);
            out.writeShort(CRLF_SHORT);
        }
        long length = head.bodyLength();
        HttpHeaders headers = head.headers();
        // The fields between those replaced or left out, a run at a time. The framing fields keep their place
        // (as HAProxy writes them), with the value of the framing: Content-Length, Transfer-Encoding when the
        // body is chunked; else they are added at the end.
        boolean lengthWritten = false;
        boolean codingWritten = false;
        int from = 0;
        for (int i = 0, n = headers.slots(); i < n; i++) {
            if (!headers.removed(i) && length != HttpHead.NO_BODY
                    && (headers.nameIs(i, "transfer-encoding") || headers.nameIs(i, "content-length"))) {
                headers.writeFields(from, i, out);
                from = i + 1;
                if (headers.nameIs(i, "content-length")) {
                    if (length > 0 && !lengthWritten) {
                        writeContentLength(length, out);
                        lengthWritten = true;
                    }
                } else if (length == HttpHead.CHUNKED && !codingWritten) {
                    out.writeBytes(CHUNKED);
                    codingWritten = true;
                }
            }
        }
        headers.writeFields(from, headers.slots(), out);
        if (length == HttpHead.CHUNKED && !codingWritten) {
            out.writeBytes(CHUNKED);
        } else if (length > 0 && !lengthWritten) {
            writeContentLength(length, out);
        }
        out.writeShort(CRLF_SHORT);
    }

    private static void writeContentLength(long length, ByteBuf out) {
        out.writeBytes(CONTENT_LENGTH);
        writeDecimal(length, out);
        out.writeShort(CRLF_SHORT);
    }

    /** {@link #writeHead(HttpHead, ByteBuf)}, with the names in the case {@code names} says. */
    public static void writeHead(HttpHead head, ByteBuf out, HeaderCase names) {
        int start = out.writerIndex();
        writeHead(head, out);
        names.adjust(out, start);
    }

    /** Writes {@code n} in decimal, as {@code Long.toString} (without making a String of it). */
    private static void writeDecimal(long n, ByteBuf out) {
        if (n >= 100 && n <= 999) {
            // A status code.
            int k = (int) n;
            out.writeMedium(('0' + k / 100) << 16 | ('0' + k / 10 % 10) << 8 | '0' + k % 10);
            return;
        }
        if (n < 0) {
            ByteBufUtil.writeAscii(out, Long.toString(n));
            return;
        }
        int digits = 1;
        for (long p = 10; digits < 19 && n >= p; p *= 10) {
            digits++;
        }
        int at = out.writerIndex();
        out.ensureWritable(digits);
        for (int k = digits - 1; k >= 0; k--) {
            out.setByte(at + k, (int) ('0' + n % 10));
            n /= 10;
        }
        out.writerIndex(at + digits);
    }

    /** The bytes that open a chunk of {@code size} bytes: its size in hexadecimal and CRLF. */
    public static ByteBuf chunkHeader(int size, ByteBufAllocator alloc) {
        if (size <= 0) {
            throw new IllegalArgumentException("a chunk of " + size + " bytes");
        }
        return writeChunkSize(size, alloc.buffer(10));
    }

    private static ByteBuf writeChunkSize(int size, ByteBuf out) {
        // As HAProxy writes them: upper case, no leading zero.
        for (int shift = (31 - Integer.numberOfLeadingZeros(size)) & ~3; shift >= 0; shift -= 4) {
            out.writeByte(HEX[size >>> shift & 0xf]);
        }
        return out.writeShort(CRLF_SHORT);
    }

    /** A whole body, known at once, chunked: one chunk (none when empty) and the last chunk, without trailers. */
    public static void writeChunkedBody(byte[] body, ByteBuf out) {
        if (body.length > 0) {
            writeChunkSize(body.length, out).writeBytes(body).writeShort(CRLF_SHORT);
        }
        out.writeMedium('0' << 16 | CRLF_SHORT).writeShort(CRLF_SHORT);
    }

    /** The CRLF that closes a chunk's data: a shared read-only buffer (releasing it is harmless). */
    public static ByteBuf crlf() {
        return CRLF.duplicate();
    }

    /** The last chunk, the trailer fields if any ({@code null} for none), and the empty line that ends the body. */
    public static ByteBuf lastChunk(HttpHeaders trailers, ByteBufAllocator alloc) {
        return lastChunk(trailers, alloc, HeaderCase.NONE);
    }

    /** {@link #lastChunk(HttpHeaders, ByteBufAllocator)}, with the trailers' names in the case {@code names} says. */
    public static ByteBuf lastChunk(HttpHeaders trailers, ByteBufAllocator alloc, HeaderCase names) {
        int fields = trailers == null ? 0 : trailers.encodedLength();
        ByteBuf b = alloc.buffer(5 + fields);
        b.writeMedium('0' << 16 | CRLF_SHORT);
        if (trailers != null) {
            trailers.writeTo(b);
            names.adjust(b, 0);
        }
        return b.writeShort(CRLF_SHORT);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
