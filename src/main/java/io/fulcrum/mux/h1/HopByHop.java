package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields that concern one connection only (RFC 9110 7.6.1), in two steps. As a message arrives, {@link #clean}
 * reads what its Connection fields ask for and takes their close and keep-alive tokens out, as HAProxy's HTTP/1
 * mux does: the rules then see the other hop-by-hop fields as HAProxy's rules do. Before the message is forwarded,
 * {@link #strip} removes them: Connection and every field it names, Keep-Alive, Proxy-Connection, TE (but "TE:
 * trailers", which says the client takes trailers, passes as such), Upgrade unless the caller keeps the upgrade;
 * and tells what a Connection field the rules set asks for. The caller then says what its own hop wants
 * ({@code connection: close}, {@code keep-alive}, {@code upgrade}). HAProxy 2.6 forwards them all.
 */
public final class HopByHop {
    private HopByHop() {
    }

    /** What the Connection field said: "close", "keep-alive", "upgrade". */
    public record Tokens(boolean close, boolean keepAlive, boolean upgrade) {
        private static final Tokens[] ALL = new Tokens[8];

        static {
            for (int k = 0; k < 8; k++) {
                ALL[k] = new Tokens((k & 1) != 0, (k & 2) != 0, (k & 4) != 0);
            }
        }

        /** The shared instance (a record: only its components tell). */
        static Tokens of(boolean close, boolean keepAlive, boolean upgrade) {
            return ALL[(close ? 1 : 0) | (keepAlive ? 2 : 0) | (upgrade ? 4 : 0)];
        }
    }

    /**
     * Fields that a Connection option never removes: they frame or route the message (the framing is the
     * parser's and the encoder's business), and removing them on request is a known way to desynchronize.
     */
    private static final byte[][] PROTECTED = {ascii("host"), ascii("content-length"), ascii("transfer-encoding"),
        ascii("te"), ascii("upgrade")};
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");
    private static final byte[] UPGRADE = ascii("upgrade");
    private static final byte[] TRAILERS = ascii("trailers");

    /**
     * What {@code head}'s Connection fields ask for, as it arrived; their close and keep-alive tokens go (a field left
     * empty goes too), as HAProxy's HTTP/1 mux cleans them. The other hop-by-hop fields stay for the rules.
     */
    public static Tokens clean(HttpHead head) {
        HttpHeaders h = head.headers();
        boolean close = false;
        boolean keepAlive = false;
        boolean upgrade = false;
        for (int i = 0, n = h.slots(); i < n; i++) {
            if (!h.removed(i) && h.nameIs(i, "connection")) {
                AsciiString value = h.value(i);
                byte[] b = value.array();
                int start = value.arrayOffset();
                int end = start + value.length();
                close |= hasToken(b, start, end, CLOSE);
                keepAlive |= hasToken(b, start, end, KEEP_ALIVE);
                upgrade |= hasToken(b, start, end, UPGRADE);
                keepInPlace(h, i);
            }
        }
        return Tokens.of(close, keepAlive, upgrade);
    }

    /** Strips {@code head}'s hop-by-hop fields, Upgrade included. */
    public static Tokens strip(HttpHead head) {
        return strip(head, false);
    }

    /**
     * Strips {@code head}'s hop-by-hop fields; {@code keepUpgrade}: the caller forwards an upgrade, Upgrade
     * stays, and so does a Connection field that says "upgrade" (in a request with an Upgrade field, or in a
     * response), in place and as spelt but for its close and keep-alive tokens, with the fields it names: as
     * HAProxy relays the handshake (an h2c upgrade keeps its HTTP2-Settings for the server). One pass over the
     * fields recognizes them by length first, since this runs on every message; the fields a Connection header
     * names (rare) take a second pass. The lists are read in place: only an unusual option (a field to remove)
     * becomes a string.
     */
    public static Tokens strip(HttpHead head, boolean keepUpgrade) {
        HttpHeaders h = head.headers();
        int said = 0;
        boolean trailers = false;
        boolean upgradeField = false;
        int te = -1;
        int connections = 0;
        List<AsciiString> named = null;
        for (int i = 0, n = h.slots(); i < n; i++) {
            if (h.removed(i)) {
                continue;
            }
            if (h.nameIs(i, "connection")) {
                connections++;
                AsciiString value = h.value(i);
                byte[] b = value.array();
                int end = value.arrayOffset() + value.length();
                for (int p = value.arrayOffset(); p <= end; p++) {
                    int comma = indexOf(b, p, end, (byte) ',');
                    // As AsciiString.trim(): whatever is not above a space (obs-text included) goes.
                    int from = p;
                    int to = comma;
                    while (from < to && b[from] <= ' ') {
                        from++;
                    }
                    while (to > from && b[to - 1] <= ' ') {
                        to--;
                    }
                    if (from < to) {
                        if (HeadRules.equalsIgnoreCase(b, from, to, CLOSE)) {
                            said |= 1;
                        } else if (HeadRules.equalsIgnoreCase(b, from, to, KEEP_ALIVE)) {
                            said |= 2;
                        } else if (HeadRules.equalsIgnoreCase(b, from, to, UPGRADE)) {
                            said |= 4;
                        } else if (!isProtected(b, from, to)) {
                            if (named == null) {
                                named = new ArrayList<>(2);
                            }
                            named.add(new AsciiString(b, from, to - from, false));
                        }
                    }
                    p = comma;
                }
                if (!keepUpgrade) {
                    h.remove(i);
                }
            } else if (h.nameIs(i, "upgrade")) {
                upgradeField = true;
                if (!keepUpgrade) {
                    h.remove(i);
                }
            } else if (h.nameIs(i, "keep-alive") || h.nameIs(i, "proxy-connection")) {
                h.remove(i);
            } else if (h.nameIs(i, "te")) {
                trailers |= hasTrailers(h.value(i));
                if (te < 0) {
                    te = i;
                } else {
                    h.remove(i);
                }
            }
        }
        if (keepUpgrade && connections > 0) {
            boolean upgrade = (said & 4) != 0 && (upgradeField || !(head instanceof RequestHead));
            for (int i = 0, n = h.slots(); i < n && connections > 0; i++) {
                if (!h.removed(i) && h.nameIs(i, "connection")) {
                    connections--;
                    if (upgrade) {
                        keepInPlace(h, i);
                    } else {
                        h.remove(i);
                    }
                }
            }
            if (upgrade) {
                named = null;
            }
        }
        if (named != null) {
            for (AsciiString name : named) {
                h.removeAll(name);
            }
        }
        if (te >= 0 && !h.removed(te)) {
            if (trailers) {
                h.setValue(te, "trailers");
            } else {
                h.remove(te);
            }
        }
        return Tokens.of((said & 1) != 0, (said & 2) != 0, (said & 4) != 0);
    }

    /**
     * The bytes HAProxy counts for {@code head} as received (%U, %B, bytes_in and bytes_out): its {@link HttpHead#htxData()}
     * and {@link HttpHead#droppedData()}, once HAProxy's HTTP/1 mux has cleaned its Connection fields of close and
     * keep-alive (see {@link #cleaned}). Only Connection fields are looked at: no pass over the head's bytes.
     */
    public static int receivedData(HttpHead head) {
        int n = head.htxData() + head.droppedData();
        HttpHeaders h = head.headers();
        for (int i = 0, slots = h.slots(); i < slots; i++) {
            if (!h.removed(i) && h.nameIs(i, "connection")) {
                AsciiString value = h.value(i);
                int cleaned = cleaned(value, null);
                if (cleaned == 0) {
                    n -= "connection".length() + value.length();
                } else if (cleaned > 0) {
                    n -= value.length() - cleaned;
                }
            }
        }
        return n;
    }

    /** Connection field {@code i} without its close and keep-alive tokens (see {@link #cleaned}). */
    private static void keepInPlace(HttpHeaders h, int i) {
        AsciiString value = h.value(i);
        int length = cleaned(value, null);
        if (length == 0) {
            h.remove(i);
        } else if (length > 0) {
            StringBuilder rewritten = new StringBuilder(length);
            cleaned(value, rewritten);
            h.setValue(i, rewritten.toString());
        }
    }

    /**
     * A Connection value without its close and keep-alive tokens, as HAProxy's HTTP/1 mux cleans it: the value up to the
     * first such token stays as it was, the tokens after it follow with a bare comma each; a field left empty goes.
     * Returns the cleaned value's length (0: the field goes), or -1 when there is no such token (the value stays);
     * appends the cleaned value to {@code out} unless it is null.
     */
    private static int cleaned(AsciiString value, StringBuilder out) {
        byte[] b = value.array();
        int start = value.arrayOffset();
        int end = start + value.length();
        int length = 0; // while no token was dropped: of the value as it was, up to the last token kept
        boolean dropped = false;
        for (int p = start; p <= end; p++) {
            int comma = indexOf(b, p, end, (byte) ',');
            int from = p;
            int to = comma;
            while (from < to && (b[from] == ' ' || b[from] == '\t')) {
                from++;
            }
            while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
                to--;
            }
            if (from < to) {
                if (HeadRules.equalsIgnoreCase(b, from, to, CLOSE) || HeadRules.equalsIgnoreCase(b, from, to, KEEP_ALIVE)) {
                    if (!dropped && out != null) {
                        out.append(value, 0, length);
                    }
                    dropped = true;
                } else if (!dropped) {
                    length = comma - start;
                } else {
                    if (length > 0) {
                        length++;
                        if (out != null) {
                            out.append(',');
                        }
                    }
                    length += to - from;
                    if (out != null) {
                        out.append(value, from - start, to - start);
                    }
                }
            }
            p = comma;
        }
        return dropped ? length : -1;
    }

    /** Whether a Connection field of {@code head} says "upgrade" (a 101 must: HAProxy refuses one that does not). */
    public static boolean saysUpgrade(HttpHead head) {
        HttpHeaders h = head.headers();
        for (int i = 0, n = h.slots(); i < n; i++) {
            if (!h.removed(i) && h.nameIs(i, "connection")) {
                AsciiString value = h.value(i);
                if (hasToken(value.array(), value.arrayOffset(), value.arrayOffset() + value.length(), UPGRADE)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isProtected(byte[] b, int from, int to) {
        for (byte[] p : PROTECTED) {
            if (HeadRules.equalsIgnoreCase(b, from, to, p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the list {@code value} holds "trailers" (case-insensitively). */
    private static boolean hasTrailers(AsciiString value) {
        return hasToken(value.array(), value.arrayOffset(), value.arrayOffset() + value.length(), TRAILERS);
    }

    /** Whether the list {@code b[start, end)} holds {@code token} (lower case; compared case-insensitively). */
    private static boolean hasToken(byte[] b, int start, int end, byte[] token) {
        for (int p = start; p <= end; p++) {
            int comma = indexOf(b, p, end, (byte) ',');
            int from = p;
            int to = comma;
            while (from < to && b[from] <= ' ') {
                from++;
            }
            while (to > from && b[to - 1] <= ' ') {
                to--;
            }
            if (HeadRules.equalsIgnoreCase(b, from, to, token)) {
                return true;
            }
            p = comma;
        }
        return false;
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

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
