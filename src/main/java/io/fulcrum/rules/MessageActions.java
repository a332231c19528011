package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.http.Reasons;
import io.fulcrum.http.RequestTarget;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.LogFormat;
import io.fulcrum.rules.HttpActions.Phase;
import io.netty.util.AsciiString;

import java.util.function.BiFunction;

/** Rewrites of the start line: the request's method and URI parts, the response's status. */
final class MessageActions {
    private MessageActions() {
    }

    static void register(HttpActions actions) {
        uri(actions, "set-path", (u, v) -> new Uri(u.prefix(), v, u.query()), false);
        uri(actions, "set-pathq", (u, v) -> u.prefix() + v, false);
        uri(actions, "set-query", (u, v) -> new Uri(u.prefix(), u.path(), v), false);
        uri(actions, "set-uri", (u, v) -> v, true);
        actions.add("set-method", a -> {
            LogFormat f = oneFormat(a);
            return (txn, msg) -> {
                RequestHead r = (RequestHead) msg;
                String m = f.format(txn);
                if (!txn.fits(r, m.length() - r.method().length())) {
                    return txn.rewriteFailed();
                }
                r.method(new AsciiString(m));
                return Verdict.CONTINUE;
            };
        }, Phase.REQUEST);
        replace(actions, "replace-path", Uri::path, (u, v) -> new Uri(u.prefix(), v, u.query()), false);
        replace(actions, "replace-pathq", Uri::pathq, (u, v) -> u.prefix() + v, false);
        replace(actions, "replace-uri", Uri::toString, (u, v) -> v, true);
        actions.add("set-status", MessageActions::setStatus, Phase.RESPONSE, Phase.AFTER_RESPONSE);
        actions.add("normalize-uri", MessageActions::normalizeUri, Phase.REQUEST);
    }

    /** {@code normalize-uri <normalizer> [full|strict]}: experimental in HAProxy 2.6, as here. */
    private static HttpAction normalizeUri(ActionArgs a) throws ConfigException {
        a.experimental("normalize-uri");
        String name = a.next("missing argument <normalizer>");
        UriNormalizer n = UriNormalizer.named(name);
        if (n == null) {
            throw new ConfigException("unknown normalizer '" + name + "'");
        }
        if (n.option() != null && a.more()) {
            String word = a.next();
            if (!word.equals(n.option())) {
                throw new ConfigException("unknown argument '" + word + "' for '" + name + "' normalizer");
            }
            n = n.withOption();
        }
        UriNormalizer normalizer = n;
        return (txn, msg) -> {
            RequestHead r = (RequestHead) msg;
            String uri = r.uri().toString();
            String done = normalizer.apply(uri);
            if (done == null) {
                txn.reply(new Reply.Error(400));
                return Verdict.DONE;
            }
            return done.equals(uri) ? Verdict.CONTINUE : setUri(txn, r, done, false);
        };
    }

    private static LogFormat oneFormat(ActionArgs a) throws ConfigException {
        if (a.remaining() != 1) {
            throw new ConfigException("expects exactly 1 argument <format>");
        }
        return a.format(a.next());
    }

    /** An action setting part of the URI to a format's value; {@code host}: see {@link #setUri}. */
    private static void uri(HttpActions actions, String name, BiFunction<Uri, String, Object> rewrite, boolean host) {
        actions.add(name, a -> {
            LogFormat f = oneFormat(a);
            return (txn, msg) -> {
                RequestHead r = (RequestHead) msg;
                String v = f.format(txn);
                return setUri(txn, r, rewrite.apply(Uri.of(r.uri()), v).toString(), host);
            };
        }, Phase.REQUEST);
    }

    /** An action replacing part of the URI when a regex matches it; {@code host}: see {@link #setUri}. */
    private static void replace(HttpActions actions, String name, java.util.function.Function<Uri, String> part,
                                BiFunction<Uri, String, Object> rewrite, boolean host) {
        actions.add(name, a -> {
            if (a.remaining() != 2) {
                throw new ConfigException("expects exactly 2 arguments <match-regex> and <replace-format>");
            }
            Replacement r = new Replacement(HeaderActions.regex(a.next(), "failed to parse the regex : "), a.format(a.next()));
            return (txn, msg) -> {
                RequestHead req = (RequestHead) msg;
                Uri u = Uri.of(req.uri());
                String v = r.apply(part.apply(u), txn);
                return v == null ? Verdict.CONTINUE : setUri(txn, req, rewrite.apply(u, v).toString(), host);
            };
        }, Phase.REQUEST);
    }

    private static HttpAction setStatus(ActionArgs a) throws ConfigException {
        int status;
        try {
            status = Integer.parseInt(a.next());
        } catch (NumberFormatException e) {
            status = -1;
        }
        if (status < 100 || status > 999) {
            throw new ConfigException("expects an integer status code between 100 and 999");
        }
        String reason = null;
        if (a.peek().equals("reason")) {
            a.next();
            reason = a.next("missing reason after 'reason'");
        }
        int code = status;
        AsciiString phrase = new AsciiString(reason != null ? reason : Reasons.of(status));
        return (txn, msg) -> {
            ResponseHead r = (ResponseHead) msg;
            if (!txn.fits(r, phrase.length() - r.reason().length())) {
                return txn.rewriteFailed();
            }
            r.status(code, phrase);
            return Verdict.CONTINUE;
        };
    }

    /**
     * Sets the request's URI, unless the head would no longer fit in a buffer (a failed rewrite). With {@code host}
     * (set-uri, replace-uri), as HAProxy, the authority of a URI in another form than origin then replaces the value
     * of the Host field, if any; an empty authority is a failed rewrite, the URI staying replaced.
     */
    private static Verdict setUri(HttpTxn txn, RequestHead r, String uri, boolean host) {
        if (!txn.fits(r, uri.length() - r.uri().length())) {
            return txn.rewriteFailed();
        }
        r.uri(new AsciiString(uri));
        String authority = host ? RequestTarget.authority(uri) : null;
        if (authority == null) {
            return Verdict.CONTINUE;
        }
        int field = r.headers().indexOf("host", 0);
        if (authority.isEmpty() || field >= 0 && !txn.fits(r, authority.length() - r.headers().value(field).length())) {
            return txn.rewriteFailed();
        }
        if (field >= 0) {
            r.headers().setValue(field, authority);
        }
        return Verdict.CONTINUE;
    }
}
