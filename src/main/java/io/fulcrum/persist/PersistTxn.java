package io.fulcrum.persist;

import io.fulcrum.server.Server;

/**
 * What persistence decided for one transaction: the server its cookie designates, whether a
 * {@code force-persist} or {@code ignore-persist} rule matched, the dates the cookie carried, and the two
 * cookie characters of the log's termination state (HAProxy's TX_CK_* and TX_SCK_* flags).
 */
public final class PersistTxn {
    /** The request's cookie: N none, I invalid, D down, V valid, E expired, O old, U unused. */
    char request = 'N';
    /** The response's cookie: N none, P passed, D deleted, I inserted, R rewritten, U updated. */
    char response = 'N';
    boolean force;
    boolean ignore;
    /** The server the cookie sends the request to (HAProxy's SF_DIRECT), or null. */
    Server direct;
    /** The dates the cookie carried (UNIX seconds), 0 when none. */
    long firstDate;
    long lastDate;
    /** A cache could keep the response (HAProxy's TX_CACHEABLE), and with its cookies (TX_CACHE_COOK). */
    boolean cacheable;
    boolean cacheCookies;
    final boolean post;
    /** The backend logs the cookie characters (a cookie mode is set). */
    final boolean logged;

    PersistTxn(boolean logged, boolean cacheableMethod, boolean post) {
        this.logged = logged;
        this.cacheable = cacheableMethod;
        this.cacheCookies = cacheableMethod;
        this.post = post;
    }

    /** The server the request's cookie designates, or null: the algorithm chooses. */
    public Server direct() {
        return direct;
    }

    /** A {@code force-persist} rule matched: the designated server is kept even when down, and not left on retries. */
    public boolean forced() {
        return force;
    }

    /** The request leaves the server its cookie designated ({@code option redispatch}): a new cookie will be set. */
    public void redispatched() {
        direct = null;
    }

    /** A retry went to another server than the cookie's: as HAProxy, a valid cookie is logged as one of a down server. */
    public void movedAway() {
        if (request == 'V') {
            request = 'D';
        }
    }

    /** The third character of the termination state, '-' when the backend has no cookie mode. */
    public char requestState() {
        return logged ? request : '-';
    }

    /** The fourth character of the termination state. */
    public char responseState() {
        return logged ? response : '-';
    }
}
