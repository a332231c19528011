package io.fulcrum.http;

import io.netty.util.AsciiString;

/** A response's status line and header fields. */
public final class ResponseHead extends HttpHead {
    private int status;
    private AsciiString reason;

    public ResponseHead(int version, int status, AsciiString reason, HttpHeaders headers) {
        super(headers, version);
        this.status = status;
        this.reason = reason;
    }

    @Override
    protected int startLineParts() {
        return 3 + reason.length(); // a status code has 3 digits
    }

    public int status() {
        return status;
    }

    public void status(int status, AsciiString reason) {
        this.status = status;
        this.reason = reason;
    }

    public AsciiString reason() {
        return reason;
    }

    /** 1xx: an interim response, another one follows. */
    public boolean isInterim() {
        return status >= 100 && status < 200;
    }

    @Override
    public String toString() {
        return versionText(version()) + " " + status + " " + reason + "\n" + headers();
    }
}
