package io.fulcrum.stream;

import io.fulcrum.backend.Backend;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.proxy.Frontend;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * {@code option http-buffer-request} (in the frontend or the backend): the server is connected only once the
 * request's body is all in, or once the request fills the buffer ({@code tune.bufsize - tune.maxrewrite}), within
 * {@code timeout http-request} of the proxy that asks (else 408; without it, {@code timeout client} applies). A
 * client that waits for "100 Continue" before sending its body is told to go on by the proxy, as HAProxy does.
 */
final class BodyWait {
    /** What a client that sent {@code Expect: 100-continue} is told. */
    private static final ByteBuf CONTINUE = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(
            "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).asReadOnly());
    /** The bytes HAProxy counts for it (%B): its HTX data, start line and end of headers. */
    static final int CONTINUE_HTX_DATA = HttpHead.HTX_START_LINE + "HTTP/1.1".length() + "100".length() + "Continue".length()
            + HttpHead.HTX_END;

    private final int room;
    /** System.nanoTime() when the wait fails, or 0 for no limit of its own. */
    private final long deadline;
    private long buffered;

    private BodyWait(int room, long timeoutMillis) {
        this.room = room;
        this.deadline = timeoutMillis > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) : 0;
    }

    /** The wait for {@code request}'s body, or null when there is none to wait for. */
    static BodyWait of(RequestHead request, Frontend frontend, Backend backend, int room) {
        boolean fe = frontend.httpOptions().bufferRequest;
        if (!fe && !backend.httpOptions().bufferRequest || request.bodyLength() == HttpHead.NO_BODY) {
            return null;
        }
        return new BodyWait(room, (fe ? frontend.timeouts() : backend.timeouts()).httpRequest);
    }

    /**
     * The "100 Continue" to send if an HTTP/1.1 {@code request} expects one (its Expect field then goes: the proxy
     * has answered it), else null.
     */
    static ByteBuf answerToExpect(RequestHead request) {
        HttpHeaders h = request.headers();
        int expect = h.indexOf("expect", 0);
        if (request.version() != 11 || expect < 0 || !h.value(expect).contentEqualsIgnoreCase("100-continue")) {
            return null;
        }
        h.remove(expect);
        return CONTINUE.duplicate();
    }

    /** {@code bytes} more of the request are held; true once they fill the room. */
    boolean add(int bytes) {
        buffered += bytes;
        return buffered >= room;
    }

    /** The time the wait fails at, or 0. */
    long deadline() {
        return deadline;
    }

    boolean expired(long now) {
        return deadline != 0 && now - deadline >= 0;
    }
}
