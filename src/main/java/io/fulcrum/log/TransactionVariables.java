package io.fulcrum.log;

import io.fulcrum.http.RequestHead;
import io.fulcrum.sample.SampleContext;

import java.util.function.Function;

/**
 * Log variables of the transaction: status, bytes, termination state, unique ID, the request line and its
 * parts as received ({@code <BADREQ>} when it could not be parsed), and captured header fields.
 */
final class TransactionVariables {
    private TransactionVariables() {
    }

    private static final String BADREQ = "<BADREQ>";

    static void register(LogVariables.Registrar r) {
        r.add("ST", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            out.append(l != null ? l.status(ctx) : ctx.status());
        });
        r.add("B", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            LogVariables.asap(out, l);
            out.append(l == null ? 0 : l.bytesOut());
        });
        r.add("U", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            out.append(l == null ? 0 : l.bytesIn());
        });
        r.add("ts", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            out.append(l == null ? "--" : l.termination());
        });
        r.add("tsc", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            out.append(l == null ? "----" : l.terminationWithCookies());
        });
        r.add("ID", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            LogVariable.text(out, l == null || !(ctx instanceof LogContext lc) ? null : l.uniqueId(lc), f);
        });
        request(r, "r", (l, req) -> l != null ? l.requestLine() : req.method() + " " + req.uri() + " " + req.receivedVersion());
        request(r, "HM", (l, req) -> l != null ? l.method() : req.method());
        request(r, "HU", (l, req) -> l != null ? l.uri() : req.uri());
        request(r, "HP", (l, req) -> uriPart(uri(l, req), false, false));
        request(r, "HPO", (l, req) -> uriPart(uri(l, req), true, false));
        request(r, "HQ", (l, req) -> uriPart(uri(l, req), false, true));
        request(r, "HV", (l, req) -> l != null ? l.httpVersion() : req.receivedVersion());
        cookie(r, "CC", l -> l.requestCookie);
        cookie(r, "CS", l -> l.responseCookie);
        captures(r, "hr", "hrl", l -> l.requestCaptures);
        captures(r, "hs", "hsl", l -> l.responseCaptures);
    }

    /** A {@code capture cookie} value, "-" when none was seen. */
    private static void cookie(LogVariables.Registrar r, String name, Function<StreamLog, String> get) {
        r.add(name, true, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            LogVariable.text(out, l == null ? null : get.apply(l), f);
        });
    }

    /** A part of the request line, from what the transaction recorded or else from the request as it is now. */
    @FunctionalInterface
    private interface RequestPart {
        CharSequence of(StreamLog log, RequestHead request);
    }

    private static void request(LogVariables.Registrar r, String name, RequestPart part) {
        r.add(name, true, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            if (l != null && l.lineUnknown()) {
                LogText.append(out, BADREQ, f, null);
            } else if (l != null && l.method() != null) {
                LogText.append(out, part.of(l, null), f, LogText.URI);
            } else if (ctx.request() != null) {
                LogText.append(out, part.of(null, ctx.request()), f, LogText.URI);
            } else {
                LogVariable.text(out, null, f);
            }
        });
    }

    private static String uri(StreamLog l, RequestHead req) {
        return (l != null ? l.uri() : req.uri()).toString();
    }

    /**
     * Parts of the request URI: without the query ({@code %HP}), the path alone without scheme and
     * authority ({@code %HPO}), or the query with its '?' ({@code %HQ}).
     */
    private static String uriPart(String uri, boolean pathOnly, boolean query) {
        int q = uri.indexOf('?');
        if (query) {
            return q < 0 ? "" : uri.substring(q);
        }
        String p = q < 0 ? uri : uri.substring(0, q);
        if (pathOnly && !p.startsWith("/")) {
            // HAProxy's http_parse_path: an absolute URI's path after its authority, none for "*" or an authority
            int scheme = p.indexOf("://");
            int slash = scheme < 0 ? -1 : p.indexOf('/', scheme + 3);
            p = slash < 0 ? "" : p.substring(slash);
        }
        return p;
    }

    /**
     * {@code %hr}: "{v1|v2}", absent fields empty; {@code %hrl}: "v1 v2", absent fields "-". Nothing at all
     * when nothing was captured (no capture lines, or no message).
     */
    private static void captures(LogVariables.Registrar r, String braces, String list, Function<StreamLog, String[]> get) {
        r.add(braces, false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            String[] values = l == null ? null : get.apply(l);
            if (values == null) {
                return;
            }
            boolean quote = (f & LogVariable.QUOTE) != 0;
            if (quote) {
                out.append('"');
            }
            out.append('{');
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.append('|');
                }
                LogText.append(out, values[i] == null ? "" : values[i], f & ~LogVariable.QUOTE, LogText.HEADER);
            }
            out.append('}');
            if (quote) {
                out.append('"');
            }
        });
        r.add(list, false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            String[] values = l == null ? null : get.apply(l);
            if (values == null) {
                return;
            }
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.append(' ');
                }
                LogText.append(out, values[i], f, LogText.HEADER);
            }
        });
    }
}
