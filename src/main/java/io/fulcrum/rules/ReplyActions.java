package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.LogFormat;
import io.fulcrum.rules.HttpActions.Phase;
import io.netty.util.AsciiString;

/** The actions that decide: {@code allow}, {@code deny}, {@code return}, {@code redirect}, {@code auth}. */
final class ReplyActions {
    private ReplyActions() {
    }

    static void register(HttpActions actions) {
        actions.add("allow", a -> (txn, msg) -> Verdict.STOP, Phase.values());
        actions.add("deny", a -> {
            // A request is denied with 403, a response with 502, unless told otherwise.
            ReplyBuilder b = new ReplyBuilder(a.phase() == Phase.REQUEST ? 403 : 502, true).parse(a, "deny_status", "status");
            return (txn, msg) -> reply(txn, b.build(txn));
        }, Phase.REQUEST, Phase.RESPONSE);
        actions.add("return", a -> {
            ReplyBuilder b = new ReplyBuilder(200, false).parse(a, "status");
            return (txn, msg) -> reply(txn, b.build(txn));
        }, Phase.REQUEST, Phase.RESPONSE);
        actions.add("auth", a -> {
            String realm = a.proxy().name();
            if (a.peek().equals("realm")) {
                a.next();
                realm = a.next("missing realm value");
            }
            String challenge = "Basic realm=\"" + realm + "\"";
            // (an answer of the proxy's own, logged "LR" as HAProxy does, not a refusal)
            return (txn, msg) -> reply(txn, HttpOptions.proxyAuthentication(txn)
                    ? new Reply.Error(407, "proxy-authenticate", challenge, false)
                    : new Reply.Error(401, "www-authenticate", challenge, false));
        }, Phase.REQUEST);
        actions.add("redirect", ReplyActions::redirect, Phase.REQUEST, Phase.RESPONSE);
    }

    private static Verdict reply(HttpTxn txn, Reply r) {
        // As HAProxy's http_reply_message: a reply that does not fit in a buffer (a large lf-string body) is not
        // sent. The transaction fails with a 500 instead: still a denial for "deny", an internal error for "return".
        if (r instanceof Reply.Content c && !txn.fits(c.head(), c.body().length == 0 ? 0 : HttpHead.HTX_BLOCK + c.body().length)) {
            if (!c.refused()) {
                return txn.internalError();
            }
            r = new Reply.Error(500, null, null, true);
        }
        txn.reply(r);
        return Verdict.DONE;
    }

    private enum Kind { LOCATION, PREFIX, SCHEME }

    private static HttpAction redirect(ActionArgs a) throws ConfigException {
        Kind kind = null;
        LogFormat target = null;
        int code = 302;
        boolean dropQuery = false;
        boolean appendSlash = false;
        boolean ignoreEmpty = false;
        String cookie = null;
        while (a.more()) {
            String w = a.next();
            switch (w) {
                case "location", "prefix", "scheme" -> {
                    kind = Kind.valueOf(w.toUpperCase(java.util.Locale.ROOT));
                    target = a.format(a.next("missing argument for '" + w + "'"));
                }
                case "code" -> {
                    String c = a.next("missing HTTP code");
                    code = switch (c) {
                        case "301", "302", "303", "307", "308" -> Integer.parseInt(c);
                        default -> throw new ConfigException("'code': unsupported HTTP code '" + c + "' (must be one of 301, 302, 303, 307 or 308)");
                    };
                }
                case "drop-query" -> dropQuery = true;
                case "append-slash" -> appendSlash = true;
                case "ignore-empty" -> ignoreEmpty = true;
                case "set-cookie" -> cookie = a.next("missing cookie") + "; path=/;";
                case "clear-cookie" -> {
                    String name = a.next("missing cookie");
                    cookie = name + "; path=/; Max-Age=0;";
                }
                default -> throw new ConfigException("expects 'code', 'prefix', 'location', 'scheme', 'set-cookie', 'clear-cookie', "
                        + "'drop-query', 'ignore-empty' or 'append-slash' (was '" + w + "')");
            }
        }
        if (kind == null) {
            throw new ConfigException("redirection type expected ('prefix', 'location', or 'scheme')");
        }
        Redirect r = new Redirect(kind, target, code, dropQuery, appendSlash, ignoreEmpty, cookie);
        return r::run;
    }

    /** A configured redirect, computing the Location for each transaction. */
    private record Redirect(Kind kind, LogFormat target, int code, boolean dropQuery, boolean appendSlash, boolean ignoreEmpty,
                            String cookie) {

        Verdict run(HttpTxn txn, HttpHead msg) {
            String t = target.format(txn);
            if (ignoreEmpty && t.isEmpty()) {
                return Verdict.CONTINUE;
            }
            String location = switch (kind) {
                case LOCATION -> t;
                case PREFIX -> ("/".equals(t) ? "" : t) + path(txn.request());
                case SCHEME -> {
                    AsciiString host = txn.request() == null ? null : txn.request().headers().get("host");
                    yield t + "://" + (host == null ? "" : host) + path(txn.request());
                }
            };
            HttpHeaders h = new HttpHeaders();
            h.add("content-length", "0");
            h.add("location", location);
            if (code != 301 && code != 308) {
                h.add("cache-control", "no-cache");
            }
            if (cookie != null) {
                h.add("set-cookie", cookie);
            }
            ResponseHead head = new ResponseHead(11, code, new AsciiString(phrase(code)), h);
            head.bodyLength(HttpHead.NO_BODY);
            return reply(txn, new Reply.Content(head, new byte[0]));
        }

        /** The request's path, without its query with drop-query, with a final '/' added by append-slash. */
        private String path(RequestHead req) {
            if (req == null) {
                return "";
            }
            Uri u = Uri.of(req.uri());
            if (!dropQuery) {
                return u.pathq();
            }
            String p = u.path();
            return appendSlash && !p.endsWith("/") ? p + "/" : p;
        }

        private static String phrase(int code) {
            return switch (code) {
                case 301 -> "Moved Permanently";
                case 302 -> "Found";
                case 303 -> "See Other";
                case 307 -> "Temporary Redirect";
                default -> "Permanent Redirect";
            };
        }
    }
}
