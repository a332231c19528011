package io.fulcrum.log;

import io.fulcrum.backend.Backend;
import io.fulcrum.cache.HttpCache;
import io.fulcrum.listener.Listener;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.server.Observation;
import io.fulcrum.server.Server;
import io.fulcrum.stats.Counters;
import io.fulcrum.stats.Counters.Count;

/**
 * Counts an ended transaction in the stats of its frontend, backend and server, from its record: bytes (those not
 * counted while it ran, with {@code option contstats}),
 * requests, response classes, times, and its termination state read as HAProxy's counters read it
 * (a client abort before the request is whole is a request error, a refused connection a connection
 * error, a server abort in the data a response error and a server abort...).
 */
final class TransactionCounts {
    private TransactionCounts() {
    }

    static void count(LogContext ctx, StreamLog l) {
        Frontend fe = ctx.frontend();
        Backend be = ctx.backend() != null ? ctx.backend() : l.backend();
        Server srv = l.server();
        long in = Math.max(0, l.bytesIn() - l.countedIn);
        long out = Math.max(0, l.bytesOut() - l.countedOut);
        boolean request = l.http() && (l.hasRequestHead() || l.isBadRequest());
        int status = l.http() ? l.status(ctx) : 0;
        if (fe != null) {
            Counters c = fe.counters();
            traffic(c, in, out, false, status); // its requests were counted as they arrived
            if (l.cause() == 'L' && !HttpCache.APPLET.equals(l.applet()) && !l.interceptCounted()) {
                c.increment(Count.INTERCEPTED); // (an answer from a cache is not one, as in HAProxy)
            }
            clientSide(c, l);
            Listener li = ctx.listener();
            if (li != null && li.counters() != null) {
                // option socket-stats: the listener's own counters, those of HAProxy's listeners (no requests, no responses).
                traffic(li.counters(), in, out, false, 0);
                clientSide(li.counters(), l);
            }
        }
        if (be != null) {
            Counters c = be.counters();
            traffic(c, in, out, request, status);
            denials(c, l);
            serverSide(c, l);
        }
        watcher(ctx, l, status, in, out);
        if (be != null && srv != null) {
            be.ended(ctx, srv);
        }
        if (srv != null) {
            Counters c = srv.counters();
            bytes(c, in, out);
            if (status > 0 && l.serverResponded()) {
                c.increment(Count.REQUESTS); // HAProxy counts a server's requests as their responses arrive
                c.response(status);
            }
            if (l.isInternalError()) {
                c.increment(Count.INTERNAL_ERRORS);
            } else if (l.cause() == 'P' && l.state() == 'H' && !l.isBadResponse()) {
                c.increment(Count.DENIED_RESP);
            }
            serverSide(c, l);
            observe(srv, l);
        }
    }

    /**
     * What the end of the transaction tells of its server's health ({@code observe layer7}): a read error or timeout
     * before the response head, as HAProxy's http_wait_for_response() sees them. Connections and responses were
     * observed as they came (StreamLog).
     */
    private static void observe(Server srv, StreamLog l) {
        boolean byServer = l.cause() == 'S' || l.cause() == 's';
        if (srv.observed() && l.http() && byServer && !l.serverResponded() && (l.state() == 'H' || l.state() == 'D')) {
            srv.observe(l.cause() == 's' ? Observation.HTTP_READ_TIMEOUT : Observation.HTTP_READ_ERROR);
        }
    }

    /** Tells the connection's watcher (stick-table trackers), if any, what the transaction did. */
    private static void watcher(LogContext ctx, StreamLog l, int status, long in, long out) {
        TransactionWatcher w = TransactionWatcher.of(ctx.frontChannel());
        if (w != null) {
            errors(w, l, status);
            w.ended(ctx, in, out);
        }
    }

    /**
     * Tells the connection's watcher the transaction's HTTP error (http_err) and failure (http_fail) the record shows
     * with {@code status}, those not told yet: the stream tells them as soon as they are known (before its response
     * rules, as HAProxy counts them), the end what came after (a response cut short).
     */
    static void errors(TransactionWatcher w, StreamLog l, int status) {
        boolean denied = l.cause() == 'P' && l.state() == 'R';
        boolean clientError = !l.errorTold && l.http()
                && (l.isBadRequest() || denied || status >= 400 && status < 500 && l.serverResponded());
        boolean invalidResponse = (l.cause() == 'S' || l.cause() == 's') && (l.state() == 'H' || l.state() == 'D');
        boolean serverFailure = !l.failureTold && l.http()
                && (invalidResponse || l.serverResponded() && status >= 500 && status != 501 && status != 505);
        if (clientError || serverFailure) {
            l.errorTold |= clientError;
            l.failureTold |= serverFailure;
            w.errors(clientError, serverFailure);
        }
    }

    /**
     * {@code option contstats}: what a running stream moved since the last call, {@code in} and {@code out} bytes in
     * all, goes to the counters of its frontend, listener, backend, server and trackers now.
     */
    static void running(LogContext ctx, StreamLog l, long in, long out) {
        long dIn = in - l.countedIn;
        long dOut = out - l.countedOut;
        if (dIn <= 0 && dOut <= 0) {
            return;
        }
        l.countedIn = in;
        l.countedOut = out;
        Frontend fe = ctx.frontend();
        if (fe != null) {
            bytes(fe.counters(), dIn, dOut);
            Listener li = ctx.listener();
            if (li != null && li.counters() != null) {
                bytes(li.counters(), dIn, dOut);
            }
        }
        Backend be = ctx.backend() != null ? ctx.backend() : l.backend();
        if (be != null) {
            bytes(be.counters(), dIn, dOut);
        }
        if (l.server() != null) {
            bytes(l.server().counters(), dIn, dOut);
        }
        TransactionWatcher w = TransactionWatcher.of(ctx.frontChannel());
        if (w != null) {
            w.transferred(dIn, dOut);
        }
    }

    private static void bytes(Counters c, long in, long out) {
        c.add(Count.BYTES_IN, in);
        c.add(Count.BYTES_OUT, out);
    }

    private static void traffic(Counters c, long in, long out, boolean request, int status) {
        bytes(c, in, out);
        if (request) {
            c.increment(Count.REQUESTS);
            c.requestStarted();
        }
        if (status != 0) {
            c.response(status); // -1, no response: "other", as HAProxy's process_stream counts txn->status
        }
    }

    /** What a frontend and its listener count alike: bad requests, internal errors, denials. */
    private static void clientSide(Counters c, StreamLog l) {
        char cause = l.cause();
        if (l.isBadRequest() || (cause == 'C' || cause == 'c') && l.state() == 'R') {
            c.increment(Count.ERR_REQ);
        }
        if (cause == 'I') {
            c.increment(Count.INTERNAL_ERRORS);
        }
        denials(c, l);
    }

    /**
     * PR: a request rule denied (a bad request's PR is an error, not a denial, as in HAProxy); PH: a response rule did.
     * A rule that failed (a rewrite in strict mode) is an internal error instead.
     */
    private static void denials(Counters c, StreamLog l) {
        if (l.isInternalError()) {
            c.increment(Count.INTERNAL_ERRORS); // a failed rewrite: the proxy's own error, no denial
        } else if (l.cause() == 'P' && l.state() == 'R' && !l.isBadRequest()) {
            c.increment(Count.DENIED_REQ);
        } else if (l.cause() == 'P' && l.state() == 'H' && !l.isBadResponse()) {
            c.increment(Count.DENIED_RESP); // (an invalid response is the backend's response error)
        }
    }

    /** What a backend and its server count alike: connection and response errors, aborts, retries, times. */
    private static void serverSide(Counters c, StreamLog l) {
        char cause = l.cause();
        char state = l.state();
        boolean server = cause == 'S' || cause == 's';
        boolean client = cause == 'C' || cause == 'c';
        if (server && (state == 'C' || state == 'Q')) {
            c.increment(Count.ERR_CONN); // (a queue timeout too, as HAProxy's back_handle_st_que counts it)
        } else if (l.isBadResponse()) {
            c.increment(Count.ERR_RESP);
        } else if (server && (state == 'H' || state == 'D')) {
            c.increment(Count.ERR_RESP);
            if (cause == 'S' && state == 'D') {
                c.increment(Count.SRV_ABORTS);
            }
        } else if (client && (state == 'C' || state == 'H' || state == 'D')) {
            c.increment(Count.CLI_ABORTS);
        }
        c.add(Count.RETRIES, l.sameServerRetries());
        if (l.server() != null) {
            c.times(l.tw(), l.tc(), l.tr(), l.tt());
        }
    }
}
