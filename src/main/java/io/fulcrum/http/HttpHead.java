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

    private final HttpHeaders headers;
    private int version;
    private long bodyLength;
    private boolean closeAfter;

    protected HttpHead(HttpHeaders headers, int version) {
        this.headers = headers;
        this.version = version;
    }

    public HttpHeaders headers() {
        return headers;
    }

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
