package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.fulcrum.mux.h1.SectionReader.CONNECTION;
import static io.fulcrum.mux.h1.SectionReader.CONTENT_LENGTH;
import static io.fulcrum.mux.h1.SectionReader.HOST;
import static io.fulcrum.mux.h1.SectionReader.TRANSFER_ENCODING;
import static io.fulcrum.mux.h1.SectionReader.UPGRADE;
import static io.fulcrum.mux.h1.SectionReader.WEBSOCKET_ACCEPT;
import static io.fulcrum.mux.h1.SectionReader.WEBSOCKET_KEY;

/**
 * What a complete head must satisfy besides its syntax, and what it says about its body: Content-Length and
 * Transfer-Encoding (the framing, where smuggling happens), Host and the request target. The body length says
 * what the framing is; the framing fields stay (Content-Length as one field) but where they must not be, and the
 * encoder writes them from the body length.
 */
final class HeadRules {
    private HeadRules() {
    }

    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] WEBSOCKET = ascii("websocket");
    private static final byte[] UPGRADE_TOKEN = ascii("upgrade");
    /** RFC 9110 6.5.1: what frames or routes a message cannot come after its content. */
    private static final int[] NOT_IN_TRAILERS = {CONTENT_LENGTH, TRANSFER_ENCODING, HOST};
    private static final String[] NOT_IN_TRAILERS_NAMES = {"content-length", "transfer-encoding", "host"};

    /** Transfer codings: none, "chunked" alone, "chunked" after codings we do not implement. */
    private static final int NO_CODING = 0;
    private static final int CHUNKED_ONLY = 1;
    private static final int OTHER_CODINGS = 2;

    static RequestHead request(SectionReader s, StartLine l) throws H1Exception {
        byte[] b = s.bytes();
        if (l.version == StartLine.HTTP_09) {
            // accept-invalid: HTTP/0.9 is forwarded as HTTP/1.0 without fields (as HAProxy); nothing can follow.
            HttpHeaders headers = s.build();
            RequestHead head = new RequestHead(method(s, b, l), s.view(l.targetOffset, l.targetLength), 10, headers);
            head.closeAfter(true);
            return head;
        }
        long length = contentLength(s);
        int codings = transferCodings(s, l.version);
        if (codings == OTHER_CODINGS) {
            throw new H1Exception(422, "transfer coding other than chunked", s.position(fieldOf(s, TRANSFER_ENCODING)));
        }
        int host = host(s, l.version == 11 && !l.pri);
        boolean connect = equals(b, l.methodOffset, l.methodLength, CONNECT);
        AsciiString normalized = target(s, l, connect, l.pri || equals(b, l.methodOffset, l.methodLength, OPTIONS), host);
        if (connect && (codings != NO_CODING || length > 0)) {
            // RFC 9110 9.3.6: a CONNECT request has no content; what follows its head is the tunnel.
            throw s.error("CONNECT request with a body", s.position(l.targetOffset));
        }
        if (isWebSocket(s) && s.first(WEBSOCKET_KEY) < 0) {
            throw s.error("WebSocket upgrade without Sec-WebSocket-Key", s.position(l.targetOffset));
        }
        boolean ambiguous = dropFraming(s, codings, length, false);
        HttpHeaders headers = s.build();
        RequestHead head = new RequestHead(method(s, b, l),
                normalized != null ? normalized : s.view(l.targetOffset, l.targetLength), l.version, headers);
        head.bodyLength(codings != NO_CODING ? HttpHead.CHUNKED : Math.max(length, 0));
        head.closeAfter(ambiguous);
        if (!l.versionAsWritten(b)) {
            head.receivedVersion(s.view(l.versionOffset, l.versionLength));
        }
        return head;
    }

    /**
     * A response head, for a request that was a HEAD ({@code headRequest}) or a CONNECT: whether it has a body
     * depends on them and on the status (RFC 9112 6.3).
     */
    static ResponseHead response(SectionReader s, StartLine l, boolean headRequest, boolean connectRequest)
            throws H1Exception {
        long length = contentLength(s);
        int codings = transferCodings(s, l.version);
        if (codings == OTHER_CODINGS) {
            throw s.error("transfer coding other than chunked", s.position(fieldOf(s, TRANSFER_ENCODING)));
        }
        int status = l.status;
        if (status == 101 && isWebSocket(s) && s.first(WEBSOCKET_ACCEPT) < 0) {
            // As HAProxy: the switch to WebSocket must carry the server's proof that it read the key.
            throw s.error("WebSocket upgrade without Sec-WebSocket-Accept", s.position(fieldOf(s, UPGRADE)));
        }
        boolean noLength = status / 100 == 1 || status == 204 || connectRequest && status / 100 == 2;
        boolean bodiless = noLength || status == 304 || headRequest;
        // RFC 9110 8.6: no Content-Length in a 1xx, a 204 or a 2xx to CONNECT; HEAD and 304 keep theirs.
        int keptByHaproxy = noLength ? framingData(s, codings != NO_CODING) : 0;
        boolean ambiguous = dropFraming(s, codings, length, noLength);
        HttpHeaders headers = s.build();
        ResponseHead head = new ResponseHead(l.version, status, s.view(l.reasonOffset, l.reasonLength), headers);
        head.droppedData(keptByHaproxy);
        head.bodyLength(bodiless ? HttpHead.NO_BODY
                : codings != NO_CODING ? HttpHead.CHUNKED : length >= 0 ? length : HttpHead.UNTIL_CLOSE);
        head.closeAfter(ambiguous);
        return head;
    }

    /** Connection: upgrade and Upgrade: websocket (among other protocols). */
    private static boolean isWebSocket(SectionReader s) {
        return s.has(UPGRADE) && hasToken(s, CONNECTION, UPGRADE_TOKEN) && hasToken(s, UPGRADE, WEBSOCKET);
    }

    private static final byte[] CONNECT = ascii("CONNECT");
    private static final byte[] OPTIONS = ascii("OPTIONS");
    /** The usual methods, shared rather than a view each on the bytes of a head (an AsciiString is immutable). */
    private static final AsciiString[] METHODS = {AsciiString.cached("GET"), AsciiString.cached("HEAD"),
        AsciiString.cached("POST"), AsciiString.cached("PUT"), AsciiString.cached("DELETE"),
        AsciiString.cached("OPTIONS"), AsciiString.cached("CONNECT"), AsciiString.cached("PATCH"),
        AsciiString.cached("TRACE")};

    /** The request's method: a shared one if it is a usual one, else a view on the headers' bytes. */
    private static AsciiString method(SectionReader s, byte[] b, StartLine l) {
        int off = l.methodOffset;
        int len = l.methodLength;
        for (AsciiString m : METHODS) {
            if (m.length() == len && m.byteAt(0) == b[off] && equals(b, off, len, m.array())) {
                return m;
            }
        }
        return s.view(off, len);
    }

    /** GET, HEAD or DELETE, which HTTP/1.0 did not say may carry a payload (methods are case-sensitive). */
    static boolean bodilessIn10(AsciiString method) {
        return method == METHODS[0] || method == METHODS[1] || method == METHODS[4];
    }

    /** Whether {@code b[off, off + len)} is {@code what}, case-sensitively. */
    private static boolean equals(byte[] b, int off, int len, byte[] what) {
        return len == what.length && Arrays.equals(b, off, off + len, what, 0, len);
    }

    /** Trailer fields, without those that frame or route a message. */
    static HttpHeaders trailers(SectionReader s) throws H1Exception {
        for (int k = 0; k < NOT_IN_TRAILERS.length; k++) {
            int i = s.first(NOT_IN_TRAILERS[k]);
            if (i >= 0) {
                throw s.error("field not allowed in trailers: " + NOT_IN_TRAILERS_NAMES[k],
                        s.position(s.valueOffset(i)));
            }
        }
        return s.build();
    }

    /**
     * The HTX data (name and value) of the framing fields of a message that must have none (1xx, 204, 2xx to CONNECT):
     * HAProxy keeps them in its message, only its HTTP/1 output drops them, so they count in %B. A Content-Length
     * beside chunked is not kept (HAProxy's parser drops it too).
     */
    private static int framingData(SectionReader s, boolean chunked) {
        int n = 0;
        if (s.has(CONTENT_LENGTH) || s.has(TRANSFER_ENCODING)) {
            for (int i = 0; i < s.fields(); i++) {
                if (s.is(i, TRANSFER_ENCODING)) {
                    n += "transfer-encoding".length() + s.valueLength(i);
                } else if (!chunked && s.is(i, CONTENT_LENGTH)) {
                    n += "content-length".length() + s.valueLength(i);
                }
            }
        }
        return n;
    }

    /**
     * Drops Content-Length when chunked wins over it (RFC 9112 6.3), and the framing fields where they must not be
     * ({@code dropFraming}: 1xx, 204, 2xx to CONNECT); returns true for both at once: the connection is closed
     * after. A Transfer-Encoding that stays (it can only say "chunked") keeps its place and its spelling, as in
     * HAProxy.
     */
    private static boolean dropFraming(SectionReader s, int codings, long length, boolean dropFraming) {
        boolean ambiguous = codings != NO_CODING && length >= 0;
        boolean dropLengths = (ambiguous || dropFraming) && s.has(CONTENT_LENGTH);
        boolean dropCodings = dropFraming && s.has(TRANSFER_ENCODING);
        if (dropCodings || dropLengths) {
            for (int i = 0; i < s.fields(); i++) {
                if (dropCodings && s.is(i, TRANSFER_ENCODING) || dropLengths && s.is(i, CONTENT_LENGTH)) {
                    s.drop(i);
                }
            }
        }
        return ambiguous;
    }

    /**
     * Checks every Content-Length field (a list of identical decimal numbers, as HAProxy accepts), keeps the
     * first one reduced to one number, drops the others; returns the length or -1.
     */
    private static long contentLength(SectionReader s) throws H1Exception {
        if (!s.has(CONTENT_LENGTH)) {
            return -1;
        }
        byte[] b = s.bytes();
        long length = -1;
        int kept = -1;
        for (int i = 0; i < s.fields(); i++) {
            if (!s.is(i, CONTENT_LENGTH)) {
                continue;
            }
            int p = s.valueOffset(i);
            int end = p + s.valueLength(i);
            int number = -1;
            int numberLength = 0;
            while (true) {
                p = skipSpaces(b, p, end);
                int d = p;
                long v = 0;
                for (; p < end && b[p] >= '0' && b[p] <= '9'; p++) {
                    if (v > (Long.MAX_VALUE - (b[p] - '0')) / 10) {
                        throw s.error("Content-Length too large", s.position(d));
                    }
                    v = v * 10 + b[p] - '0';
                }
                if (p == d) {
                    throw s.error("invalid Content-Length", s.position(p));
                }
                if (length >= 0 && v != length) {
                    throw s.error("different Content-Length values", s.position(d));
                }
                length = v;
                if (number < 0) {
                    number = d;
                    numberLength = p - d;
                }
                p = skipSpaces(b, p, end);
                if (p == end) {
                    break;
                }
                if (b[p++] != ',') {
                    throw s.error("invalid Content-Length", s.position(p - 1));
                }
            }
            if (kept < 0) {
                kept = i;
                s.value(i, number, numberLength);
            } else {
                s.drop(i);
            }
        }
        return length;
    }

    /**
     * Checks the Transfer-Encoding fields, all of them one list: "chunked" must be last and once (RFC 9112 6.1),
     * an empty element is an unknown coding, none is allowed in HTTP/1.0.
     */
    private static int transferCodings(SectionReader s, int version) throws H1Exception {
        if (!s.has(TRANSFER_ENCODING)) {
            return NO_CODING;
        }
        byte[] b = s.bytes();
        boolean any = false;
        boolean chunked = false;
        boolean other = false;
        for (int i = 0; i < s.fields(); i++) {
            if (!s.is(i, TRANSFER_ENCODING)) {
                continue;
            }
            if (version == 10) {
                throw s.error("Transfer-Encoding in an HTTP/1.0 message", s.position(s.valueOffset(i)));
            }
            any = true;
            int end = s.valueOffset(i) + s.valueLength(i);
            for (int p = s.valueOffset(i); p <= end; p++) {
                int e = indexOf(b, p, end, (byte) ',');
                int from = skipSpaces(b, p, e);
                int to = trimSpaces(b, from, e);
                if (chunked) {
                    throw s.error(equalsIgnoreCase(b, from, to, CHUNKED) ? "chunked applied twice"
                            : "chunked is not the last transfer coding", s.position(from));
                }
                chunked = equalsIgnoreCase(b, from, to, CHUNKED);
                other |= !chunked;
                p = e;
            }
        }
        if (any && !chunked) {
            throw s.error("chunked is not the last transfer coding", s.position(fieldOf(s, TRANSFER_ENCODING)));
        }
        return !any ? NO_CODING : other ? OTHER_CODINGS : CHUNKED_ONLY;
    }

    /** The one Host field, checked (RFC 9112 3.2); -1 if none, which HTTP/1.1 does not allow ({@code required}). */
    private static int host(SectionReader s, boolean required) throws H1Exception {
        int host = -1;
        for (int i = 0; s.has(HOST) && i < s.fields(); i++) {
            if (!s.is(i, HOST)) {
                continue;
            }
            int v = s.valueOffset(i);
            if (host >= 0) {
                throw s.error("several Host fields", s.position(v));
            }
            if (!Authority.valid(s.bytes(), v, v + s.valueLength(i), false)) {
                throw s.error("invalid Host", s.position(v));
            }
            host = i;
        }
        if (host < 0 && required) {
            throw s.error("no Host in an HTTP/1.1 request", s.position(0));
        }
        return host;
    }

    /**
     * The request target's form: authority for CONNECT, "*" for OPTIONS (and PRI: {@code asterisk}), else origin or
     * absolute; an authority in the target must name the same host as the Host field. As HAProxy's scheme-based
     * normalization (2.5+, RFC 3986 6.2.3), an absolute target and the Host field lose an empty port or the scheme's
     * default one (Host of a CONNECT: 80 and 443); returns the target so rewritten, or null when it is as received.
     */
    private static AsciiString target(SectionReader s, StartLine l, boolean connect, boolean asterisk, int host)
            throws H1Exception {
        byte[] b = s.bytes();
        int t = l.targetOffset;
        int end = t + l.targetLength;
        int authority = t;
        int authorityEnd = end;
        int defaultPort = 443;
        if (connect) {
            if (!Authority.valid(b, t, end, true)) {
                throw s.error("CONNECT target must be host:port", s.position(t));
            }
        } else if (b[t] == '/') {
            return null;
        } else if (b[t] == '*' && end == t + 1) {
            if (!asterisk) {
                throw s.error("asterisk-form target is for OPTIONS only", s.position(t));
            }
            return null;
        } else {
            int colon = Authority.schemeEnd(b, t, end);
            if (colon < 0) {
                throw s.error("invalid request target", s.position(t));
            }
            authority = colon + 3;
            authorityEnd = indexOf(b, authority, end, (byte) '/');
            authority = Authority.skipUserinfo(b, authority, authorityEnd);
            if (authority == authorityEnd || !Authority.valid(b, authority, authorityEnd, false)) {
                throw s.error("invalid authority in request target", s.position(authority));
            }
            defaultPort = Authority.defaultPort(b, t, colon);
        }
        int v = host < 0 ? -1 : s.valueOffset(host);
        // A CONNECT's Host without a port names the target's port when that is 80 or 443 (as haproxy 2.6 judges it).
        if (v >= 0 && !Authority.same(b, authority, authorityEnd, v, v + s.valueLength(host), defaultPort)
                && !(connect && Authority.same(b, authority, authorityEnd, v, v + s.valueLength(host), 80))) {
            throw s.error("Host differs from the request target", s.position(v));
        }
        if (!connect && defaultPort < 0) {
            return null;
        }
        if (v >= 0) {
            int hostEnd = Authority.withoutDefaultPort(b, v, v + s.valueLength(host), connect ? 80 : defaultPort);
            s.value(host, v, Authority.withoutDefaultPort(b, v, hostEnd, connect ? 443 : defaultPort) - v);
        }
        int kept = connect ? authorityEnd : Authority.withoutDefaultPort(b, authority, authorityEnd, defaultPort);
        if (kept == authorityEnd) {
            return null;
        }
        byte[] uri = new byte[end - t - (authorityEnd - kept)];
        System.arraycopy(b, t, uri, 0, kept - t);
        System.arraycopy(b, authorityEnd, uri, kept - t, end - authorityEnd);
        return new AsciiString(uri, false);
    }

    /** Whether a field of this kind lists {@code lower} (comma-separated, case-insensitive). */
    private static boolean hasToken(SectionReader s, int kind, byte[] lower) {
        if (!s.has(kind)) {
            return false;
        }
        byte[] b = s.bytes();
        for (int i = 0; i < s.fields(); i++) {
            if (!s.is(i, kind)) {
                continue;
            }
            int end = s.valueOffset(i) + s.valueLength(i);
            for (int p = s.valueOffset(i); p <= end; p++) {
                int e = indexOf(b, p, end, (byte) ',');
                int from = skipSpaces(b, p, e);
                if (equalsIgnoreCase(b, from, trimSpaces(b, from, e), lower)) {
                    return true;
                }
                p = e;
            }
        }
        return false;
    }

    /** The value offset of the first field of this kind (for error positions). */
    private static int fieldOf(SectionReader s, int kind) {
        int i = s.first(kind);
        return i < 0 ? 0 : s.valueOffset(i);
    }

    /** The first {@code c} in {@code b[from, to)}, or {@code to}. */
    private static int indexOf(byte[] b, int from, int to, byte c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return to;
    }

    private static int skipSpaces(byte[] b, int from, int to) {
        while (from < to && Chars.isSpace(b[from])) {
            from++;
        }
        return from;
    }

    private static int trimSpaces(byte[] b, int from, int to) {
        while (to > from && Chars.isSpace(b[to - 1])) {
            to--;
        }
        return to;
    }

    static boolean equalsIgnoreCase(byte[] b, int from, int to, byte[] lower) {
        if (to - from != lower.length) {
            return false;
        }
        for (int k = 0; k < lower.length; k++) {
            if (Chars.lower(b[from + k]) != lower[k]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
