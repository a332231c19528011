package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class H1EncoderTest {

    private static String head(HttpHead head) {
        ByteBuf out = Unpooled.buffer();
        H1Encoder.writeHead(head, out);
        return text(out);
    }

    /** The bytes of {@code b} as text; releases it. */
    static String text(ByteBuf b) {
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    private static HttpHeaders fields(String... nameValues) {
        HttpHeaders h = new HttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    private static RequestHead request(String method, long length, HttpHeaders fields) {
        RequestHead r = new RequestHead(AsciiString.of(method), AsciiString.of("/p?q"), 11, fields);
        r.bodyLength(length);
        return r;
    }

    private static ResponseHead response(int status, long length, HttpHeaders fields) {
        ResponseHead r = new ResponseHead(11, status, AsciiString.of("Reason"), fields);
        r.bodyLength(length);
        return r;
    }

    @Test
    void aRequestWithoutBody() {
        assertThat(head(request("GET", HttpHead.NO_BODY, fields("host", "a", "accept", "*/*"))))
                .isEqualTo("GET /p?q HTTP/1.1\r\nhost: a\r\naccept: */*\r\n\r\n");
    }

    @Test
    void theLengthComesFromTheBodyLengthNotFromTheFields() {
        assertThat(head(request("POST", 12, fields("host", "a", "content-length", "012"))))
                .isEqualTo("POST /p?q HTTP/1.1\r\nhost: a\r\ncontent-length: 12\r\n\r\n");
        assertThat(head(request("POST", HttpHead.CHUNKED, fields("Content-Length", "5", "Transfer-Encoding", "gzip"))))
                .isEqualTo("POST /p?q HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n");
    }

    @Test
    void withoutBodyContentLengthIsKeptAsItIs() {
        // A response to HEAD, a 304: the length of the body a GET would have had. A zero length too.
        assertThat(head(response(200, HttpHead.NO_BODY, fields("content-length", "1234"))))
                .isEqualTo("HTTP/1.1 200 Reason\r\ncontent-length: 1234\r\n\r\n");
        assertThat(head(request("POST", HttpHead.NO_BODY, fields("content-length", "0"))))
                .isEqualTo("POST /p?q HTTP/1.1\r\ncontent-length: 0\r\n\r\n");
    }

    @Test
    void untilCloseHasNoFramingField() {
        // What an HTTP/1.0 client gets for a chunked body.
        assertThat(head(response(200, HttpHead.UNTIL_CLOSE, fields("content-length", "3", "connection", "close"))))
                .isEqualTo("HTTP/1.1 200 Reason\r\nconnection: close\r\n\r\n");
    }

    @Test
    void removedFieldsAreNotWritten() {
        HttpHeaders h = fields("a", "1", "b", "2", "c", "3");
        h.removeAll("b");
        assertThat(head(response(404, HttpHead.NO_BODY, h))).isEqualTo("HTTP/1.1 404 Reason\r\na: 1\r\nc: 3\r\n\r\n");
    }

    @Test
    void http10MessagesKeepTheirVersion() {
        RequestHead r = new RequestHead(AsciiString.of("GET"), AsciiString.of("/"), 10, new HttpHeaders());
        assertThat(head(r)).isEqualTo("GET / HTTP/1.0\r\n\r\n");
        ResponseHead s = new ResponseHead(20, 200, AsciiString.of("OK"), new HttpHeaders());
        assertThat(head(s)).as("HTTP/2 goes out as 1.1").isEqualTo("HTTP/1.1 200 OK\r\n\r\n");
    }

    @Test
    void chunksAreFramedAroundTheDataWithoutCopyingIt() {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        assertThat(text(H1Encoder.chunkHeader(5, alloc))).isEqualTo("5\r\n");
        assertThat(text(H1Encoder.chunkHeader(0x1a2b, alloc))).isEqualTo("1A2B\r\n"); // upper case, as HAProxy writes chunk sizes
        assertThat(text(H1Encoder.crlf())).isEqualTo("\r\n");
        ByteBuf crlf = H1Encoder.crlf();
        crlf.release();
        crlf.release();
        assertThat(text(H1Encoder.crlf())).as("the shared CRLF survives releases").isEqualTo("\r\n");
        assertThatThrownBy(() -> H1Encoder.chunkHeader(0, alloc)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLastChunkCarriesTheTrailers() {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        assertThat(text(H1Encoder.lastChunk(null, alloc))).isEqualTo("0\r\n\r\n");
        assertThat(text(H1Encoder.lastChunk(fields("x-checksum", "42"), alloc))).isEqualTo("0\r\nx-checksum: 42\r\n\r\n");
    }

    @Test
    void whatTheParserReadsTheEncoderWritesBack() throws H1Exception {
        String raw = "PATCH /x HTTP/1.1\r\nhost: a\r\nx-list: a, b\r\ntransfer-encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\nx-t: 1\r\n\r\n";
        Recorder r = Feed.all(new H1Parser(H1Parser.Kind.REQUEST, H1Limits.DEFAULT, false), raw);
        assertThat(r.wire()).isEqualTo("PATCH /x HTTP/1.1\r\nhost: a\r\nx-list: a, b\r\ntransfer-encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\nx-t: 1\r\n\r\n");
    }
}
