package io.fulcrum.http;

import io.fulcrum.http.ErrorMessage.Connection;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.fulcrum.http.HaproxyCaptures.bytes;
import static io.fulcrum.http.HaproxyCaptures.get;
import static io.fulcrum.http.HaproxyCaptures.show;
import static org.assertj.core.api.Assertions.assertThat;

/** The built-in pages against what HAProxy 2.6.12 sent (haproxy-2.6-error-responses.txt). */
class ErrorPagesTest {
    private static final List<Integer> STATUSES =
            List.of(200, 400, 401, 403, 404, 405, 407, 408, 410, 413, 421, 422, 425, 429, 500, 501, 502, 503, 504);
    private static final List<String> CLIENTS = List.of("http11", "http10", "http10-keep-alive");

    @Test
    void hasAPageForEachStatusHaproxyHas() {
        assertThat(ErrorPages.statuses()).isEqualTo(STATUSES);
        for (int s : new int[] {-1, 0, 100, 302, 414, 431, 505, 599, 600, 1000}) {
            assertThat(ErrorPages.hasBuiltin(s)).as("status %d", s).isFalse();
        }
    }

    /** HAProxy maps a status it has no page for to its 500 page. */
    @Test
    void otherStatusesGetThe500Page() {
        assertThat(bytes(ErrorPages.builtin(414))).isEqualTo(bytes(ErrorPages.builtin(500)));
        assertThat(ErrorPages.message(431)).isSameAs(ErrorPages.message(500));
    }

    @Test
    void errorsFoundBeforeARequestAreSentAsStored() {
        assertThat(show(bytes(ErrorPages.builtin(400)))).isEqualTo(show(get("mux-400")));
        assertThat(show(bytes(ErrorPages.builtin(408)))).isEqualTo(show(get("mux-408")));
        assertThat(show(bytes(ErrorPages.builtin(422)))).isEqualTo(show(get("mux-422")));
    }

    @Test
    void everyPageIsSentAsHaproxySendsItForEachKindOfClient() {
        for (int status : STATUSES) {
            ErrorMessage m = ErrorPages.message(status);
            assertThat(m.status()).isEqualTo(status);
            for (String client : CLIENTS) {
                assertThat(show(bytes(m.wire(connection(m, client)))))
                        .as("deny_status %d, %s client", status, client)
                        .isEqualTo(show(get("deny-" + status + "-" + client)));
            }
        }
    }

    @Test
    void authenticationAddsItsHeaderAfterThePageHeaders() {
        ErrorMessage m = ErrorPages.message(401).withHeader("WWW-Authenticate", "Basic realm=\"Fulcrum Realm\"");
        assertThat(show(bytes(m.wire(Connection.NONE)))).isEqualTo(show(get("auth-401-http11")));
    }

    @Test
    void buffersAreSharedReadOnlyDuplicates() {
        ByteBuf a = ErrorPages.builtin(503);
        ByteBuf b = ErrorPages.builtin(503);
        assertThat(a.isReadOnly()).isTrue();
        assertThat(a.isDirect()).isTrue();
        a.skipBytes(10);
        assertThat(b.readerIndex()).isZero();
        assertThat(a.release()).isFalse();
        assertThat(a.release()).isFalse();
        assertThat(bytes(ErrorPages.builtin(503))).isEqualTo(bytes(b));
        assertThat(ErrorPages.message(503).wire(Connection.CLOSE).isReadOnly()).isTrue();
    }

    @Test
    void theBodyLengthTellsWhereTheHeadEnds() {
        byte[] wire = bytes(ErrorPages.message(503).wire(Connection.CLOSE));
        String text = new String(wire, StandardCharsets.ISO_8859_1);
        assertThat(ErrorPages.message(503).bodyLength()).isEqualTo(wire.length - text.indexOf("\r\n\r\n") - 4);
    }

    /**
     * The Connection header HAProxy's HTTP/1 output chose for these captures: the connection stays open
     * when the client wants it and the message allows it; "keep-alive" is said unless both sides are
     * HTTP/1.1; "close" is said to HTTP/1.1 messages.
     */
    static Connection connection(ErrorMessage m, String client) {
        boolean client11 = client.equals("http11");
        boolean keepAlive = !client.equals("http10") && m.lengthKnown() && !m.asksClose();
        if (keepAlive) {
            return m.version11() && client11 ? Connection.NONE : Connection.KEEP_ALIVE;
        }
        return m.version11() ? Connection.CLOSE : Connection.NONE;
    }
}
