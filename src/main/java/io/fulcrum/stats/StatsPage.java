package io.fulcrum.stats;

import io.fulcrum.acl.Condition;
import io.fulcrum.http.AuthFetches;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.Reasons;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.log.StreamLog;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.rules.HttpTxn;
import io.fulcrum.rules.Reply;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A proxy's statistics page ({@code stats enable}, {@code stats uri}...): a GET, HEAD or POST whose path starts
 * with the stats URI is answered by the proxy after its http-request rules, as HAProxy's http_process_req_common
 * does: access rules ({@code stats http-request}, or the {@code stats auth} accounts), then the page in the format
 * the URI asks for, or with {@code stats admin}, the form's actions on servers and a redirect back to the page.
 */
public final class StatsPage {
    /** What logs show in place of a server name (%s). */
    public static final String APPLET = "<STATS>";

    private final String uri;
    private final String realm;
    private final Set<String> accounts;
    private final long refreshSeconds;
    private final List<Condition> adminRules;
    private final List<StatsPageSpec.AccessRule> accessRules;
    final List<String> scopes;
    final boolean hideVersion;
    final boolean legends;
    final boolean modules;
    final String node;
    final String description;

    private StatsPage(StatsPageSpec s) {
        this.uri = s.uri;
        this.realm = s.realm != null ? s.realm : StatsPageSpec.DEFAULT_REALM;
        this.accounts = Set.copyOf(s.accounts);
        this.refreshSeconds = s.refreshSeconds;
        this.adminRules = List.copyOf(s.adminRules);
        this.accessRules = List.copyOf(s.accessRules);
        this.scopes = List.copyOf(s.scopes);
        this.hideVersion = s.hideVersion;
        this.legends = s.legends;
        this.modules = s.modules;
        this.node = s.node;
        this.description = s.description;
    }

    /**
     * The page of {@code proxy}, or null when it has none. The frontend and backend halves of a listen section get
     * the same object, so that a stream checks it once.
     */
    public static StatsPage of(ProxySpec proxy) {
        StatsPageSpec s = StatsPageSpec.of(proxy);
        if (s == null) {
            return null;
        }
        if (s.built == null) {
            s.built = new StatsPage(s);
        }
        return s.built;
    }

    String uri() {
        return uri;
    }

    long refreshSeconds() {
        return refreshSeconds;
    }

    /** HAProxy's http_stats_check_uri(): GET, HEAD or POST, and a path (or URI) that starts with the stats URI. */
    public boolean matches(RequestHead request) {
        AsciiString m = request.method();
        if (!m.contentEquals("GET") && !m.contentEquals("HEAD") && !m.contentEquals("POST")) {
            return false;
        }
        return target(request).startsWith(uri);
    }

    /** The request's URI, reduced to its path and query when the stats URI is a path. */
    private String target(RequestHead request) {
        String u = request.uri().toString();
        if (uri.startsWith("/") && !u.startsWith("/")) {
            int scheme = u.indexOf("://");
            if (scheme > 0) {
                int path = u.indexOf('/', scheme + 3);
                int query = u.indexOf('?', scheme + 3);
                int start = path < 0 ? query : query < 0 ? path : Math.min(path, query);
                return start < 0 ? "" : u.substring(start);
            }
        }
        return u;
    }

    /**
     * Answers a request {@link #matches} accepted; {@code frontends} when the page is the frontend's own (a listen's
     * too): as HAProxy, only then is the request counted as intercepted.
     */
    public void serve(HttpTxn txn, StreamLog log, boolean frontends) {
        log.applet(APPLET);
        Reply refused = refusal(txn);
        if (!(refused instanceof Reply.Error e && e.status() == 403)) {
            log.error('L', 'R'); // answered by the proxy itself (a denial is the proxy's refusal: PR)
            log.interceptedNow(frontends && txn.frontend() != null ? txn.frontend().counters() : null);
        }
        if (refused != null) {
            txn.reply(refused);
            return;
        }
        String options = target(txn.request()).substring(uri.length());
        StatsQuery q = StatsQuery.parse(options, refreshSeconds > 0);
        if (!txn.request().method().contentEquals("POST")) {
            txn.reply(answered(log, page(txn, q)));
        } else if (adminRules.stream().anyMatch(c -> Condition.passes(c, txn))) {
            txn.replyAfterBody(body -> answered(log, redirect(q, body == null ? StatsStatus.EXCD
                    : StatsAdmin.apply(txn.frontend().process(), new String(body, StandardCharsets.ISO_8859_1)))));
        } else {
            txn.reply(answered(log, redirect(q, StatsStatus.DENY)));
        }
    }

    /** The page's own responses are the service's response (Tr). */
    private static Reply answered(StreamLog log, Reply r) {
        if (r instanceof Reply.Content c) {
            log.responseHead(c.head());
        }
        return r;
    }

    /**
     * The answer of the access rules when they refuse the request: the first {@code stats http-request} rule that
     * applies decides (deny: 403, auth: 401); without rules, the {@code stats auth} accounts are asked for.
     */
    private Reply refusal(HttpTxn txn) {
        for (StatsPageSpec.AccessRule r : accessRules) {
            if (!Condition.passes(r.condition(), txn)) {
                continue;
            }
            return switch (r.action()) {
                case "deny" -> new Reply.Error(403);
                case "auth" -> challenge(r.realm() != null ? r.realm() : StatsPageSpec.DEFAULT_REALM);
                default -> null;
            };
        }
        if (accessRules.isEmpty() && !accounts.isEmpty()) {
            String[] cred = AuthFetches.basic(txn);
            if (cred == null || !accounts.contains(cred[0] + ":" + cred[1])) {
                return challenge(realm);
            }
        }
        return null;
    }

    private Reply challenge(String realm) {
        return new Reply.Error(401, "www-authenticate", "Basic realm=\"" + realm + "\"", false); // (logged "LR", as auth)
    }

    private Reply page(HttpTxn txn, StatsQuery q) {
        if (q.format() == StatsQuery.Format.JSON_SCHEMA) {
            return new Reply.Error(501); // HAProxy's schema of its JSON output is not served yet
        }
        StatsView view = new StatsView(this, txn.frontend().process(), q, adminRules.stream().anyMatch(c -> Condition.passes(c, txn)));
        String type = switch (q.format()) {
            case HTML -> "text/html";
            case JSON, JSON_SCHEMA -> "application/json";
            default -> "text/plain";
        };
        byte[] body = view.render().getBytes(q.format() == StatsQuery.Format.HTML ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        HttpHeaders h = new HttpHeaders();
        h.add("cache-control", "no-cache");
        h.add("content-type", type);
        if (refreshSeconds > 0 && !q.noRefresh()) {
            h.add("refresh", Long.toString(refreshSeconds));
        }
        // HAProxy's applet says chunked itself to an HTTP/1.1 GET; else its HTTP/1 mux adds it after Connection.
        RequestHead request = txn.request();
        return framed(h, body, request, request.version() >= 11 && !request.isHead());
    }

    /**
     * A page as HAProxy 2.6's applets send it: chunked, without a length. {@code field}: the framing is one of the
     * page's own fields, in its place (a HEAD's answer keeps it); otherwise HTTP/1 adds it after the rest. An
     * HTTP/1.0 client gets a Content-Length instead (HAProxy sends it chunks, which RFC 9112 6.1 forbids: as the
     * chunked responses Fulcrum forwards to such a client, docs/differences.md).
     */
    static Reply framed(HttpHeaders h, byte[] body, RequestHead request, boolean field) {
        boolean chunked = request.version() >= 11;
        if (field) {
            h.add(chunked ? "transfer-encoding" : "content-length", chunked ? "chunked" : Integer.toString(body.length));
        }
        ResponseHead head = new ResponseHead(11, 200, new AsciiString(Reasons.of(200)), h);
        head.bodyLength(request.isHead() ? HttpHead.NO_BODY : chunked ? HttpHead.CHUNKED : body.length);
        return new Reply.Content(head, body, false, true);
    }

    /** After a POST, back to the page with a GET (a reload must not post again), telling how it went. */
    private Reply redirect(StatsQuery q, StatsStatus status) {
        HttpHeaders h = new HttpHeaders();
        h.add("cache-control", "no-cache");
        h.add("content-type", "text/plain");
        h.add("content-length", "0");
        h.add("location", uri + ";st=" + status + (q.hideDown() ? ";up" : "") + (q.noRefresh() ? ";norefresh" : "")
                + (q.scope().isEmpty() ? "" : "?scope=" + q.scope()));
        ResponseHead head = new ResponseHead(11, 303, new AsciiString(Reasons.of(303)), h);
        head.bodyLength(HttpHead.NO_BODY);
        return new Reply.Content(head, new byte[0]);
    }

    /** True when {@code proxy} is shown: {@code stats scope} names it, and the page's scope is part of its name. */
    boolean shows(String proxy, String scope) {
        return (scopes.isEmpty() || scopes.contains(proxy))
                && (scope.isEmpty() || proxy.toLowerCase(Locale.ROOT).contains(scope.toLowerCase(Locale.ROOT)));
    }
}
