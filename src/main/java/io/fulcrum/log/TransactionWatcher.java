package io.fulcrum.log;

import io.fulcrum.sample.SampleContext;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * What follows a client connection's transactions besides the logs and the stats (the stick-table trackers of
 * stick.Trackers): set on the client channel by whoever needs it, told of each HTTP request and of each
 * transaction's end, on the connection's event loop.
 */
public interface TransactionWatcher {
    AttributeKey<TransactionWatcher> KEY = AttributeKey.valueOf("fulcrum.transactionWatcher");

    /** The connection passed the tcp-request connection and session rules: its session starts. */
    void sessionAccepted();

    /** An HTTP request's head arrived and passed the frontend's tcp-request content rules. */
    void request(SampleContext ctx);

    /** Bytes a running stream moved ({@code option contstats}); those of its end come with {@link #ended}. */
    void transferred(long bytesIn, long bytesOut);

    /**
     * The transaction's HTTP error or failure is known (once each): counted then, as HAProxy does, so that the rules
     * of its response already see it.
     *
     * @param clientError   an HTTP request error induced by the client: invalid, denied, tarpitted, or answered 4xx by
     *                      the server (HAProxy's http_err)
     * @param serverFailure an HTTP response failure: invalid or truncated, or a 5xx other than 501 and 505 (http_fail)
     */
    void errors(boolean clientError, boolean serverFailure);

    /** A transaction ended. */
    void ended(SampleContext ctx, long bytesIn, long bytesOut);

    /** The watcher of {@code ch}, or null (without allocating an attribute). */
    static TransactionWatcher of(Channel ch) {
        return ch != null && ch.hasAttr(KEY) ? ch.attr(KEY).get() : null;
    }
}
