package io.fulcrum.http;

import io.fulcrum.acl.Condition;
import io.fulcrum.proxy.ProxyPart;
import io.fulcrum.sample.SampleContext;

import java.util.ArrayList;
import java.util.List;

/** A proxy's HTTP options; inherited from defaults. */
public final class HttpOptions implements ProxyPart {

    /** How connections are kept between transactions (HAProxy's http-keep-alive / http-server-close / httpclose). */
    public enum ConnectionMode {
        KEEP_ALIVE, SERVER_CLOSE, CLOSE
    }

    public ConnectionMode connectionMode = ConnectionMode.KEEP_ALIVE;
    public boolean acceptInvalidRequest;
    public boolean acceptInvalidResponse;
    /** {@code option forwardfor}, or null. */
    public AddressHeader forwardFor;
    /** {@code option originalto}, or null. */
    public AddressHeader originalTo;
    public HeaderNamePolicy headerNames = HeaderNamePolicy.PRESERVE;
    /** {@code option http-ignore-probes}: no 400 or 408 for a connection that brought nothing. */
    public boolean ignoreProbes;
    /** {@code option h1-case-adjust-bogus-client}, {@code -server}: header names in the case h1-case-adjust says. */
    public boolean caseAdjustClient;
    public boolean caseAdjustServer;
    /** {@code option http-buffer-request}: the whole body (or a buffer of it) before connecting. */
    public boolean bufferRequest;
    /** {@code option abortonclose}: a request whose client closed its side before the response is abandoned. */
    public boolean abortOnClose;
    /** {@code option checkcache}: a cacheable response with a cookie is refused ({@link CacheableCookie}). */
    public boolean checkCache;
    /** {@code option http-pretend-keepalive}: requests say keep-alive to the server even when its connection closes after them. */
    public boolean pretendKeepAlive;
    /** {@code option http-no-delay}: kept for the tcp-mode warning; Fulcrum never delays data (see docs/keyword-status.tsv). */
    public boolean noDelay;
    /** {@code option idle-close-on-response}: at a soft stop, idle client connections wait for a last request. */
    public boolean idleCloseOnResponse;
    /**
     * {@code option disable-h2-upgrade}: HAProxy then answers an HTTP/2 preface on an HTTP/1 connection as a bad
     * HTTP/1 request, which Fulcrum (no HTTP/2 yet) always does; kept for the mode warning.
     */
    public boolean noH2Upgrade;
    /**
     * {@code option http-use-proxy-header}: a proxied request (its target starts with neither '/' nor '*') is
     * authenticated as a proxy authenticates: Proxy-Authorization, 407 and Proxy-Authenticate.
     */
    public boolean useProxyHeader;
    /** {@code monitor-uri}, or null. */
    public String monitorUri;
    /** {@code http-send-name-header}: the field that names the server a request is sent to, or null. */
    public String sendNameHeader;
    /**
     * {@code max-session-srv-conns}: the idle server connections a client connection keeps for itself at most
     * (HAProxy's MAX_SRV_LIST, 5, by default).
     */
    public int maxSessionServerConns = 5;
    /** {@code monitor fail} conditions: a monitor request that meets one is answered 503 (not inherited). */
    public final List<Condition> monitorFail = new ArrayList<>();

    /** True when the request of {@code ctx} is authenticated as by a proxy ({@link #useProxyHeader}). */
    public static boolean proxyAuthentication(SampleContext ctx) {
        RequestHead r = ctx.httpRequest();
        if (r == null || ctx.frontend() == null || !ctx.frontend().httpOptions().useProxyHeader || r.uri().isEmpty()) {
            return false;
        }
        char first = r.uri().charAt(0);
        return first != '/' && first != '*';
    }

    /** True when a {@code monitor fail} condition holds for this transaction. */
    public boolean monitorFails(SampleContext ctx) {
        for (Condition c : monitorFail) {
            if (c.test(ctx)) {
                return true;
            }
        }
        return false;
    }

    /** Turns off the options that HAProxy turns off in a TCP proxy (those it warns about). */
    void dropHttpOnly() {
        forwardFor = null;
        originalTo = null;
        bufferRequest = false;
        ignoreProbes = false;
        acceptInvalidRequest = false;
        acceptInvalidResponse = false;
        checkCache = false;
        idleCloseOnResponse = false;
        pretendKeepAlive = false;
        noDelay = false;
        noH2Upgrade = false;
    }

    @Override
    public ProxyPart inherit() {
        HttpOptions c = new HttpOptions();
        c.connectionMode = connectionMode;
        c.pretendKeepAlive = pretendKeepAlive;
        c.idleCloseOnResponse = idleCloseOnResponse;
        c.noH2Upgrade = noH2Upgrade;
        c.noDelay = noDelay;
        c.acceptInvalidRequest = acceptInvalidRequest;
        c.acceptInvalidResponse = acceptInvalidResponse;
        c.forwardFor = forwardFor;
        c.originalTo = originalTo;
        c.headerNames = headerNames;
        c.monitorUri = monitorUri;
        c.sendNameHeader = sendNameHeader;
        c.ignoreProbes = ignoreProbes;
        c.caseAdjustClient = caseAdjustClient;
        c.caseAdjustServer = caseAdjustServer;
        c.bufferRequest = bufferRequest;
        c.abortOnClose = abortOnClose;
        c.checkCache = checkCache;
        c.useProxyHeader = useProxyHeader;
        c.maxSessionServerConns = maxSessionServerConns;
        return c;
    }

    /** The mode of a frontend/backend pair: the most closing of the two wins, as in HAProxy. */
    public static ConnectionMode combine(ConnectionMode a, ConnectionMode b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
