package io.fulcrum.log;

/**
 * {@code option contstats}: the bytes of a running stream go to the counters of its frontend, listener, backend,
 * server and stick counters as they pass (HAProxy's stream_process_counters()), so that graphs of long transfers do
 * not jump at their end; the end counts the rest.
 */
public final class RunningCounts {
    private RunningCounts() {
    }

    /** A stream whose record counts its bytes as they pass (HTTP). */
    public static void update(LogContext ctx) {
        StreamLog l = ctx.streamLog();
        if (l != null) {
            TransactionCounts.running(ctx, l, l.bytesIn(), l.bytesOut());
        }
    }

    /** A stream that counts its own bytes until its end (mode tcp): {@code in} from the client, {@code out} to it, so far. */
    public static void update(LogContext ctx, long in, long out) {
        StreamLog l = ctx.streamLog();
        if (l != null) {
            TransactionCounts.running(ctx, l, in, out);
        }
    }
}
