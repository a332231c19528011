package io.fulcrum.stick;

import io.fulcrum.log.TransactionWatcher;
import io.fulcrum.sample.SampleContext;
import io.netty.channel.Channel;

/**
 * The tracked entries of a client connection, HAProxy's stick counters sc0 to sc2: those tracked by
 * {@code tcp-request connection|session} rules last as long as the connection; those tracked by content and HTTP
 * rules, as long as the transaction (HTTP/1 has one at a time on a connection). Lives on the connection's event loop,
 * as a channel attribute; updates the shared entries through their atomic data.
 */
public final class Trackers implements TransactionWatcher {
    /** The number of stick counters (HAProxy's MAX_SESS_STKCTR). */
    public static final int COUNTERS = 3;

    /**
     * An entry tracked in a table. Once released (the connection closed) it no longer counts as tracked, but still
     * receives the bytes of the transaction whose end is told after the close.
     */
    static final class Tracked {
        private final StickTable table;
        private final Entry entry;
        private boolean released;

        Tracked(StickTable table, Entry entry) {
            this.table = table;
            this.entry = entry;
        }

        StickTable table() {
            return table;
        }

        Entry entry() {
            return entry;
        }
    }

    private final Tracked[] session = new Tracked[COUNTERS];
    private final Tracked[] stream = new Tracked[COUNTERS];

    /** The trackers of {@code ch}, created (and released with the connection) when {@code create}; else null when none. */
    static Trackers of(Channel ch, boolean create) {
        if (ch == null) {
            return null;
        }
        TransactionWatcher w = TransactionWatcher.of(ch);
        if (w instanceof Trackers t || !create) {
            return (Trackers) w;
        }
        Trackers t = new Trackers();
        ch.attr(KEY).set(t);
        ch.closeFuture().addListener(f -> t.releaseAll());
        return t;
    }

    /** The trackers of the context's client connection, or null. */
    static Trackers of(SampleContext ctx) {
        return of(ctx.frontChannel(), false);
    }

    /** Counter {@code n}: the transaction's, else the connection's; null when not tracked. */
    Tracked get(int n) {
        Tracked t = stream[n] != null && !stream[n].released ? stream[n] : session[n];
        return t == null || t.released ? null : t;
    }

    /**
     * Starts tracking {@code e} of {@code t} as counter {@code n} (unless it is already tracked): the entry is held and
     * counts a connection (conn_cnt, conn_cur, conn_rate).
     */
    boolean track(int n, StickTable t, Entry e, boolean connectionLevel) {
        if (get(n) != null) {
            return false;
        }
        t.hold(e);
        (connectionLevel ? session : stream)[n] = new Tracked(t, e);
        t.add(e, DataType.CONN_CNT, 0, 1);
        t.add(e, DataType.CONN_CUR, 0, 1);
        t.add(e, DataType.CONN_RATE, 0, 1);
        return true;
    }

    /** The entries tracked by connection-level rules count the session (sess_cnt, sess_rate). */
    @Override
    public void sessionAccepted() {
        for (Tracked tr : session) {
            each(tr, DataType.SESS_CNT, DataType.SESS_RATE, 1);
        }
    }

    /** Counts an HTTP request in {@code e} (http_req_cnt and http_req_rate). */
    static void countRequest(StickTable t, Entry e) {
        t.add(e, DataType.HTTP_REQ_CNT, 0, 1);
        t.add(e, DataType.HTTP_REQ_RATE, 0, 1);
    }

    @Override
    public void request(SampleContext ctx) {
        for (int i = 0; i < COUNTERS; i++) {
            each(session[i], DataType.HTTP_REQ_CNT, DataType.HTTP_REQ_RATE, 1);
            each(stream[i], DataType.HTTP_REQ_CNT, DataType.HTTP_REQ_RATE, 1);
        }
    }

    @Override
    public void errors(boolean clientError, boolean serverFailure) {
        for (int i = 0; i < COUNTERS; i++) {
            errors(session[i], clientError, serverFailure);
            errors(stream[i], clientError, serverFailure);
        }
    }

    @Override
    public void ended(SampleContext ctx, long bytesIn, long bytesOut) {
        for (int i = 0; i < COUNTERS; i++) {
            bytes(session[i], bytesIn, bytesOut);
            bytes(stream[i], bytesIn, bytesOut);
        }
        release(stream);
        java.util.Arrays.fill(stream, null);
    }

    @Override
    public void transferred(long bytesIn, long bytesOut) {
        for (int i = 0; i < COUNTERS; i++) {
            bytes(session[i], bytesIn, bytesOut);
            bytes(stream[i], bytesIn, bytesOut);
        }
    }

    private static void bytes(Tracked tr, long bytesIn, long bytesOut) {
        each(tr, DataType.BYTES_IN_CNT, DataType.BYTES_IN_RATE, bytesIn);
        each(tr, DataType.BYTES_OUT_CNT, DataType.BYTES_OUT_RATE, bytesOut);
    }

    private static void errors(Tracked tr, boolean clientError, boolean serverFailure) {
        each(tr, DataType.HTTP_ERR_CNT, DataType.HTTP_ERR_RATE, clientError ? 1 : 0);
        each(tr, DataType.HTTP_FAIL_CNT, DataType.HTTP_FAIL_RATE, serverFailure ? 1 : 0);
    }

    private static void each(Tracked tr, DataType count, DataType rate, long n) {
        if (tr != null && n != 0) {
            tr.table().add(tr.entry(), count, 0, n);
            tr.table().add(tr.entry(), rate, 0, n);
        }
    }

    private void releaseAll() {
        release(stream);
        release(session);
    }

    /** The tracking ends: the entry no longer counts this connection (conn_cur) and may expire. Once. */
    private static void release(Tracked[] level) {
        for (Tracked tr : level) {
            if (tr != null && !tr.released) {
                tr.released = true;
                tr.table.decrement(tr.entry, DataType.CONN_CUR);
                tr.table.release(tr.entry);
            }
        }
    }
}
