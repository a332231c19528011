package io.fulcrum.mux.h1;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.netty.util.AsciiString;

import java.util.ArrayList;
import java.util.List;

/**
 * Removes the fields that concern one connection only before a message is forwarded (RFC 9110 7.6.1):
 * Connection and every field it names, Keep-Alive, Proxy-Connection, TE (but "TE: trailers", which says the
 * client takes trailers, passes as such), Upgrade unless the caller keeps the upgrade; and tells what the
 * Connection field asked for, so that the caller decides whether the connection persists. The caller then
 * says what its own hop wants ({@code connection: close}, {@code keep-alive}, {@code upgrade}). HAProxy 2.6
 * only removes close and keep-alive from Connection and forwards the rest.
 */
public final class HopByHop {
    private HopByHop() {
    }

    /** What the Connection field said: "close", "keep-alive", "upgrade". */
    public record Tokens(boolean close, boolean keepAlive, boolean upgrade) {
    }

    /**
     * Fields that a Connection option never removes: they frame or route the message (the framing is the
     * parser's and the encoder's business), and removing them on request is a known way to desynchronize.
     */
    private static final List<String> PROTECTED = List.of("host", "content-length", "transfer-encoding", "te",
            "upgrade");

    /** Strips {@code head}'s hop-by-hop fields, Upgrade included. */
    public static Tokens strip(HttpHead head) {
        return strip(head, false);
    }

    /**
     * Strips {@code head}'s hop-by-hop fields; {@code keepUpgrade}: the caller forwards an upgrade, Upgrade
     * stays. One pass over the fields recognizes them by length first, since this runs on every message;
     * the fields a Connection header names (rare) take a second pass.
     */
    public static Tokens strip(HttpHead head, boolean keepUpgrade) {
        HttpHeaders h = head.headers();
        boolean close = false;
        boolean keepAlive = false;
        boolean upgrade = false;
        boolean trailers = false;
        int te = -1;
        List<AsciiString> named = null;
        for (int i = 0, n = h.slots(); i < n; i++) {
            if (h.removed(i)) {
                continue;
            }
            if (h.nameIs(i, "connection")) {
                for (AsciiString token : tokens(h.value(i))) {
                    if (token.contentEqualsIgnoreCase("close")) {
                        close = true;
                    } else if (token.contentEqualsIgnoreCase("keep-alive")) {
                        keepAlive = true;
                    } else if (token.contentEqualsIgnoreCase("upgrade")) {
                        upgrade = true;
                    } else if (!isProtected(token)) {
                        if (named == null) {
                            named = new ArrayList<>(2);
                        }
                        named.add(token);
                    }
                }
                h.remove(i);
            } else if (h.nameIs(i, "keep-alive") || h.nameIs(i, "proxy-connection") || !keepUpgrade && h.nameIs(i, "upgrade")) {
                h.remove(i);
            } else if (h.nameIs(i, "te")) {
                for (AsciiString token : tokens(h.value(i))) {
                    trailers |= token.contentEqualsIgnoreCase("trailers");
                }
                if (te < 0) {
                    te = i;
                } else {
                    h.remove(i);
                }
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
        return new Tokens(close, keepAlive, upgrade);
    }

    private static boolean isProtected(AsciiString token) {
        for (String p : PROTECTED) {
            if (token.contentEqualsIgnoreCase(p)) {
                return true;
            }
        }
        return false;
    }

    /** The elements of a comma-separated list, without their surrounding whitespace; empty ones skipped. */
    private static List<AsciiString> tokens(AsciiString value) {
        List<AsciiString> tokens = new ArrayList<>(2);
        int start = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.byteAt(i) == ',') {
                AsciiString t = value.subSequence(start, i, false).trim();
                if (!t.isEmpty()) {
                    tokens.add(t);
                }
                start = i + 1;
            }
        }
        return tokens;
    }
}
