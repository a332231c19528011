package io.fulcrum.http;

import io.netty.util.AsciiString;

/** A request's start line and header fields. */
public final class RequestHead extends HttpHead {
    private AsciiString method;
    private AsciiString uri;

    public RequestHead(AsciiString method, AsciiString uri, int version, HttpHeaders headers) {
        super(headers, version);
        this.method = method;
        this.uri = uri;
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
