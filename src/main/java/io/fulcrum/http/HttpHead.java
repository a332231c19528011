package io.fulcrum.http;

/**
 * What requests and responses share: the protocol version, the header fields, and how the body is
 * delimited. Version-neutral: the HTTP/1 parser fills it, an HTTP/2 one will too.
 */
public abstract sealed class HttpHead permits RequestHead, ResponseHead {

    /** {@link #bodyLength()}: no body. */
    public static final long NO_BODY = 0;
    /** {@link #bodyLength()}: a body of unknown length, in chunks (HTTP/1 chunked, or HTTP/2 frames). */
    public static final long CHUNKED = -1;
    /** {@link #bodyLength()}: a response body that ends when the server closes. */
    public static final long UNTIL_CLOSE = -2;

    /**
     * HTX space (HAProxy's internal message form, which {@code tune.bufsize} bounds) taken by a head besides its
     * start-line strings and its fields: the HTX header, the start-line and end-of-headers blocks. Measured on
     * HAProxy 2.6.12 (the largest body accepted with a given head; the largest header a rewrite may add), as is the
     * 8 bytes each header or data block takes.
     */
    public static final int HTX_FIXED = 85;
    public static final int HTX_BLOCK = 8;
    /** HTX data of a start line besides its three strings: HAProxy's {@code struct htx_sl} (flags, status or method, lengths). */
    public static final int HTX_START_LINE = 20;
    /** HTX data of the block that ends the headers, or the trailers (every chunked body ends with it). */
    public static final int HTX_END = 1;
    /** The version in a start line ("HTTP/1.1"). */
    private static final int VERSION_LENGTH = 8;

    private final HttpHeaders headers;
    private int version;
    private long bodyLength;
    private boolean closeAfter;
    /** HTX data of fields the parser dropped that HAProxy's message keeps (a 204's Content-Length). */
    private int droppedData;
    /** HTX space of the body that shares the buffer with this head, see {@link #bodyBuffered}. */
    private int bodyHtx;

    protected HttpHead(HttpHeaders headers, int version) {
        this.headers = headers;
        this.version = version;
    }

    public HttpHeaders headers() {
        return headers;
    }

    /**
     * The size of this head in HAProxy's HTX form, which a rewrite must keep within {@code tune.bufsize} (HAProxy's
     * strict rewriting mode): the fields' part is kept up to date by the rewrites once asked for.
     */
    public int htxSize() {
        return HTX_FIXED + VERSION_LENGTH + startLineParts() + headers.htxSize();
    }

    /**
     * The bytes HAProxy counts for this head in HTTP mode (%U, %B, bytes_in and bytes_out): its HTX data, not the wire
     * bytes, i.e. the start line's structure and strings, each field's name and value, the end of headers.
     */
    public int htxData() {
        return HTX_START_LINE + VERSION_LENGTH + startLineParts() + headers.htxData() + HTX_END;
    }

    /**
     * HTX data of fields the HTTP/1 parser dropped as received though HAProxy keeps them in its message (only its output
     * drops them): the framing fields of a 1xx or a 204. They count as received (%B).
     */
    public int droppedData() {
        return droppedData;
    }

    public void droppedData(int bytes) {
        droppedData = bytes;
    }

    /**
     * {@code bytes} of the body are in with this head (read with it, or waited for): in HAProxy they share its buffer,
     * filled by reading up to {@code maxHead} (tune.bufsize less tune.maxrewrite), so a rewrite of the head must fit
     * beside them. Called before the rules that rewrite the head.
     */
    public void bodyBuffered(long bytes, int maxHead) {
        if (bytes > 0) {
            bodyHtx = Math.max(bodyHtx, (int) Math.min(HTX_BLOCK + bytes, Math.max(0, maxHead - htxSize())));
        }
    }

    /** The HTX space the body in the buffer takes beside this head ({@link #bodyBuffered}). */
    public int bodyHtx() {
        return bodyHtx;
    }

    /** The length of the start line's strings but the version: method and URI, or status code and reason. */
    protected abstract int startLineParts();

    /** Major * 10 + minor: 10 for HTTP/1.0, 11 for HTTP/1.1, 20 for HTTP/2. */
    public int version() {
        return version;
    }

    public void version(int version) {
        this.version = version;
    }

    /** The body's length in bytes when known, or {@link #NO_BODY}, {@link #CHUNKED}, {@link #UNTIL_CLOSE}. */
    public long bodyLength() {
        return bodyLength;
    }

    public void bodyLength(long bodyLength) {
        this.bodyLength = bodyLength;
    }

    /**
     * The connection must be closed once this transaction is over: the message's framing was ambiguous
     * (Transfer-Encoding with Content-Length, an HTTP/0.9 request), so what follows it cannot be trusted.
     */
    public boolean closeAfter() {
        return closeAfter;
    }

    public void closeAfter(boolean closeAfter) {
        this.closeAfter = closeAfter;
    }

    /** "HTTP/1.1" for 11 (the usual ones are constants: the logs ask for them on every request). */
    public static String versionText(int version) {
        return version == 11 ? "HTTP/1.1" : version == 10 ? "HTTP/1.0" : "HTTP/" + version / 10 + "." + version % 10;
    }
}
