package io.fulcrum.mux.h1;

import io.fulcrum.http.HeadReader.Held;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** What the HTTP fetches of a mode tcp stream read from its held bytes; expectations from HAProxy 2.6 (TcpHttpFetchesIT). */
class H1HeadReaderTest {
    private final H1HeadReader reader = new H1HeadReader(H1Limits.DEFAULT);

    private Held read(String bytes) {
        ByteBuf b = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        try {
            Held held = reader.read(b);
            assertThat(b.readerIndex()).isZero(); // left as they were, for the rules and the server
            return held;
        } finally {
            b.release();
        }
    }

    @Test
    void aWholeHeadIsRead() {
        Held h = read("GET /p?q=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
        assertThat(h.incomplete()).isFalse();
        assertThat(h.head().method().toString()).isEqualTo("GET");
        assertThat(h.head().uri().toString()).isEqualTo("/p?q=1");
        assertThat(h.head().headers().get("host").toString()).isEqualTo("a");
    }

    @Test
    void aHeadInPartsIsIncomplete() {
        assertThat(read("")).isEqualTo(Held.INCOMPLETE);
        assertThat(read("GE")).isEqualTo(Held.INCOMPLETE);
        assertThat(read("GET / HTTP/1.1\r\nHost: a\r\n")).isEqualTo(Held.INCOMPLETE);
    }

    @Test
    void bytesThatAreNotHttpAreSeenAtOnce() {
        assertThat(read("\u0016\u0003\u0001\u0000\u0005")).isEqualTo(Held.NOT_HTTP); // a TLS hello's first byte
        assertThat(read("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n")).isEqualTo(Held.NOT_HTTP);
    }

    @Test
    void aHeadOverTheLimitsIsNotHttp() {
        H1HeadReader small = new H1HeadReader(new H1Limits(1024, 128, 101));
        ByteBuf b = Unpooled.copiedBuffer("GET / HTTP/1.1\r\nX: " + "x".repeat(1000) + "\r\n\r\n", StandardCharsets.ISO_8859_1);
        try {
            assertThat(small.read(b)).isEqualTo(Held.NOT_HTTP);
        } finally {
            b.release();
        }
    }
}
