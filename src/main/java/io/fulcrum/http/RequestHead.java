package io.fulcrum.http;

import io.netty.util.AsciiString;

/** A request's start line and header fields. */
public final class RequestHead extends HttpHead {
    private AsciiString method;
    private AsciiString uri;
    /** The version as the request line spelt it, where that differs from how {@link #version()} writes; or null. */
    private AsciiString receivedVersion;

    public RequestHead(AsciiString method, AsciiString uri, int version, HttpHeaders headers) {
        super(headers, version);
        this.method = method;
        this.uri = uri;
    }

    @Override
    protected int startLineParts() {
        return method.length() + uri.length();
    }

    public AsciiString method() {
        return method;
    }

    public void method(AsciiString method) {
        this.method = method;
    }

    /** The request target as received: origin form ("/a?b"), absolute form, authority form (CONNECT) or "*". */
    public AsciiString uri() {
        return uri;
    }

    public void uri(AsciiString uri) {
        this.uri = uri;
    }

    /**
     * The version as the request line spelt it: {@code HTTP/1.2} is taken as HTTP/1.1 and forwarded so, but logs
     * show what the client sent, as HAProxy's do.
     */
    public CharSequence receivedVersion() {
        return receivedVersion != null ? receivedVersion : versionText(version());
    }

    /** The version's spelling in the request line, which differs from {@code versionText(version())}. */
    public void receivedVersion(AsciiString text) {
        this.receivedVersion = text;
    }

    /** The target from the leading '/' of its path on (query included), or "" when it has no path ("*", authority form). */
    public AsciiString path() {
        return MonitorUri.path(uri);
    }

    public boolean isHead() {
        return method.contentEquals("HEAD");
    }

    public boolean isConnect() {
        return method.contentEquals("CONNECT");
    }

    @Override
    public String toString() {
        return method + " " + uri + " " + versionText(version()) + "\n" + headers();
    }
}
