package io.fulcrum.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.AsciiString;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A response HAProxy sends instead of forwarding one: a built-in error page, an {@code errorfile}, an
 * {@code errorloc} redirect. HAProxy does not send these files as they are written: it parses them when
 * it loads them and its HTTP/1 output writes them again, with lower-case header names, trimmed values,
 * the "close" and "keep-alive" tokens removed from Connection headers, and a Connection header of its
 * own before the blank line. The three possible forms ({@link Connection}) are built once, so sending
 * one is a buffer duplicate.
 *
 * <p>Which form applies is decided as for any response (HAProxy's {@code h1_set_cli_conn_mode()} and
 * {@code h1_update_res_conn_value()}): the client connection stays open when the client wants it, the
 * message's length is known ({@link #lengthKnown()}) and it does not say "close" ({@link #asksClose()});
 * then "keep-alive" is written when the message or the request is not HTTP/1.1; when the connection
 * closes, "close" is written when the message is HTTP/1.1.
 */
public final class ErrorMessage {

    /** The Connection header HTTP/1 output adds to the message. */
    public enum Connection {
        NONE(""),
        CLOSE("connection: close\r\n"),
        KEEP_ALIVE("connection: keep-alive\r\n");

        private final byte[] line;

        Connection(String line) {
            this.line = line.getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    private static final byte[] CRLF = {'\r', '\n'};

    /** An empty error file (e.g. /dev/null): nothing is sent, the connection is closed. */
    static final ErrorMessage EMPTY = new ErrorMessage(0, false, false, true, false, new byte[0], 0, 0, new byte[0]);

    private final int status;
    private final boolean version11;
    private final boolean lengthKnown;
    private final boolean close;
    private final boolean keepAlive;
    /** The status line and the header lines as written, without the blank line. */
    private final byte[] head;
    /** The head's HTX data as HAProxy loads it (its Connection fields as written: only its HTTP/1 output drops them). */
    private final int headData;
    /** What {@link #headData} has that {@link #head} has not: the close and keep-alive tokens of Connection fields. */
    private final int dropped;
    private final byte[] body;
    private final ByteBuf[] forms = new ByteBuf[Connection.values().length];

    private ErrorMessage(int status, boolean version11, boolean lengthKnown, boolean close, boolean keepAlive,
                         byte[] head, int headData, int dropped, byte[] body) {
        this.status = status;
        this.version11 = version11;
        this.lengthKnown = lengthKnown;
        this.close = close;
        this.keepAlive = keepAlive;
        this.head = head;
        this.headData = headData;
        this.dropped = dropped;
        this.body = body;
        for (Connection c : Connection.values()) {
            forms[c.ordinal()] = head.length == 0 ? Unpooled.EMPTY_BUFFER : constant(head, c.line, CRLF, body);
        }
    }

    /** The message of a parsed head and its body, written as HAProxy's HTTP/1 output writes it. */
    static ErrorMessage of(ResponseHeadParser.Head h, byte[] body, boolean version11, boolean lengthKnown) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, h.version() + " " + h.code() + " " + h.reason() + "\r\n");
        boolean close = false;
        boolean keepAlive = false;
        int dropped = 0;
        for (ResponseHeadParser.Field f : h.fields()) {
            String value = f.value();
            if (f.name().equals("connection")) {
                for (HeaderValues.Word w : HeaderValues.words(value)) {
                    close |= w.text(value).equalsIgnoreCase("close");
                    keepAlive |= w.text(value).equalsIgnoreCase("keep-alive");
                }
                value = withoutPersistenceTokens(value);
                dropped += f.value().length() - value.length();
                if (value.isEmpty()) {
                    dropped += f.name().length();
                    continue;
                }
            }
            write(out, f.name() + ": " + value + "\r\n");
        }
        int headData = HttpHead.HTX_START_LINE + h.strings() + HttpHead.HTX_END;
        return new ErrorMessage(h.status(), version11, lengthKnown, close, keepAlive, out.toByteArray(), headData, dropped,
                body);
    }

    /**
     * This message with one more header, after the others (as HAProxy adds WWW-Authenticate to the 401
     * of {@code http-request auth}). Builds new buffers: meant to be called once per configured rule.
     */
    public ErrorMessage withHeader(String name, String value) {
        if (isEmpty()) {
            return this;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head);
        write(out, name.toLowerCase(Locale.ROOT) + ": " + value + "\r\n");
        return new ErrorMessage(status, version11, lengthKnown, close, keepAlive, out.toByteArray(),
                headData + name.length() + value.length(), dropped, body);
    }

    /**
     * The message as a head that rules can still change ({@code http-after-response}), its framing left
     * to its own Content-Length field.
     */
    public ResponseHead toHead() {
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] start = lines[0].split(" ", 3);
        HttpHeaders h = new HttpHeaders();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            h.add(lines[i].substring(0, colon), lines[i].substring(colon + 1).strip());
        }
        ResponseHead r = new ResponseHead(version11 ? 11 : 10, status, new AsciiString(start.length > 2 ? start[2] : ""), h);
        r.bodyLength(HttpHead.NO_BODY);
        return r;
    }

    /** The bytes HAProxy counts for this message (%B): its HTX data, the body left out in a response to HEAD. */
    public int htxData(boolean headRequest) {
        return headData + (headRequest ? 0 : body.length);
    }

    /**
     * The HTX data of the head that {@link #toHead()} has not: the close and keep-alive tokens of its Connection
     * fields, which HAProxy counts though its HTTP/1 output drops them.
     */
    public int droppedData() {
        return dropped;
    }

    /** The body (read-only). */
    public byte[] body() {
        return body;
    }

    /** The bytes to send, with {@code connection}'s header: a read-only duplicate that need not be released. */
    public ByteBuf wire(Connection connection) {
        return forms[connection.ordinal()].retainedDuplicate();
    }

    /** The status code of the message's status line (not necessarily the error it stands for). */
    public int status() {
        return status;
    }

    /** True for an empty error file: nothing is sent and the connection is closed. */
    public boolean isEmpty() {
        return head.length == 0;
    }

    /** The status line says HTTP/1.1 or later. */
    public boolean version11() {
        return version11;
    }

    /** The body is delimited (Content-Length, or a 204/304); otherwise it ends with the connection. */
    public boolean lengthKnown() {
        return lengthKnown;
    }

    /** A Connection header of the message says "close". */
    public boolean asksClose() {
        return close;
    }

    /** A Connection header of the message says "keep-alive" (matters with {@code option httpclose}). */
    public boolean asksKeepAlive() {
        return keepAlive;
    }

    /** The length of the body, which a response to HEAD leaves out. */
    public int bodyLength() {
        return body.length;
    }

    /**
     * A Connection value without "close" and "keep-alive", rebuilt exactly as HAProxy's
     * {@code h1_parse_connection_header()} does: the text is kept as is up to the first removed word,
     * later words are appended after a bare comma.
     */
    private static String withoutPersistenceTokens(String value) {
        StringBuilder kept = new StringBuilder();
        int parsed = 0;
        for (HeaderValues.Word w : HeaderValues.words(value)) {
            String word = w.text(value);
            if (!word.equalsIgnoreCase("close") && !word.equalsIgnoreCase("keep-alive")) {
                if (kept.length() == parsed) {
                    kept.setLength(0);
                    kept.append(value, 0, w.next());
                } else {
                    kept.append(kept.isEmpty() ? "" : ",").append(word);
                }
            }
            parsed = w.next();
        }
        return kept.toString();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A read-only direct buffer that release() leaves alone, so it can be shared forever. */
    static ByteBuf constant(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteBuffer direct = ByteBuffer.allocateDirect(length);
        for (byte[] part : parts) {
            direct.put(part);
        }
        return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(direct.flip()).asReadOnly());
    }
}
