package io.fulcrum.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * The activity counters of a frontend, backend, server or listener, as {@code show stat} reports them.
 * Each event loop counts in its own array ({@link PerLoop}): the counts, then the windows of the average times and
 * the histograms. An ended transaction adds to a dozen counts and seven times, all in the adjacent cache lines of
 * its loop's array: a striped adder per count and an object per average touched a line of their own each, cold
 * ones with many servers. Only its loop writes a loop's array, with plain loads and stores (no locked instruction
 * on the data path); the threads off the loops share an array of their own, updated atomically. Reading sums the
 * arrays. {@code clear counters all} starts a new epoch rather than writing zeros under the loops' feet: an array
 * of an older epoch reads as zeros, and its loop clears it before its next count.
 */
public final class Counters {

    /** What is counted; each the source of the stats field of the same meaning. */
    public enum Count {
        BYTES_IN, BYTES_OUT,
        DENIED_REQ, DENIED_RESP, DENIED_CONN, DENIED_SESS,
        ERR_REQ, ERR_CONN, ERR_RESP, INTERNAL_ERRORS, FAILED_REWRITES,
        RETRIES, REDISPATCHES,
        HRSP_1XX, HRSP_2XX, HRSP_3XX, HRSP_4XX, HRSP_5XX, HRSP_OTHER,
        REQUESTS, H1_STREAMS, CLI_ABORTS, SRV_ABORTS, INTERCEPTED,
        CONNECTS, REUSES, SELECTED, SESSIONS,
        CACHE_LOOKUPS, CACHE_HITS,
        SSL_SESSIONS, SSL_REUSED_SESSIONS, SSL_FAILED_HANDSHAKES
    }

    private static final int COUNTS = Count.values().length;
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

    /** Where an array keeps the epoch it counts in, after the counts, four averages' windows and three histograms. */
    private static final int EPOCH = COUNTS + 4 * SlidingAverage.WIDTH + 3 * LatencyHistogram.WIDTH;
    private static final int LENGTH = EPOCH + 1;

    private final PerLoop<long[]> counts = new PerLoop<>(() -> new long[LENGTH]);
    /** The array of the threads off the loops, made on first use. */
    private volatile long[] offLoop;
    /** The current epoch: {@code clear counters all} moves it on. */
    private volatile long epoch;
    private final RateCounter sessionRate = new RateCounter();
    private final RateCounter requestRate = new RateCounter();
    private final RateCounter connectionRate = new RateCounter();
    private final SlidingAverage queueTime = new SlidingAverage(this, COUNTS);
    private final SlidingAverage connectTime = new SlidingAverage(this, COUNTS + SlidingAverage.WIDTH);
    private final SlidingAverage responseTime = new SlidingAverage(this, COUNTS + 2 * SlidingAverage.WIDTH);
    private final SlidingAverage totalTime = new SlidingAverage(this, COUNTS + 3 * SlidingAverage.WIDTH);
    private final LatencyHistogram connectHistogram = new LatencyHistogram(this, COUNTS + 4 * SlidingAverage.WIDTH);
    private final LatencyHistogram responseHistogram =
            new LatencyHistogram(this, COUNTS + 4 * SlidingAverage.WIDTH + LatencyHistogram.WIDTH);
    private final LatencyHistogram totalHistogram =
            new LatencyHistogram(this, COUNTS + 4 * SlidingAverage.WIDTH + 2 * LatencyHistogram.WIDTH);

    public void add(Count c, long n) {
        add(c.ordinal(), n);
    }

    private void add(int i, long n) {
        long[] a = loopArray();
        if (a != null) {
            COUNT.setOpaque(a, i, (long) COUNT.get(a, i) + n);
        } else {
            COUNT.getAndAdd(offLoopArray(), i, n);
        }
    }

    public void increment(Count c) {
        add(c, 1);
    }

    /** The calling loop's array, of the current epoch; null off the loops. */
    private long[] loopArray() {
        long[] a = counts.mineOnLoop();
        if (a != null) {
            long e = epoch;
            if ((long) COUNT.get(a, EPOCH) != e) {
                restart(a, e);
            }
        }
        return a;
    }

    /** The array of the threads off the loops, of the current epoch. */
    private long[] offLoopArray() {
        long[] a = offLoop;
        return a != null && (long) COUNT.getAcquire(a, EPOCH) == epoch ? a : offLoopArrayMade();
    }

    /** The shared array made, or restarted in the current epoch (its writers are several: under the lock). */
    private synchronized long[] offLoopArrayMade() {
        if (offLoop == null) {
            offLoop = new long[LENGTH];
        }
        long e = epoch;
        if ((long) COUNT.getAcquire(offLoop, EPOCH) != e) {
            restart(offLoop, e);
        }
        return offLoop;
    }

    /** Zeroes {@code a} and marks it as of epoch {@code e}. */
    private static void restart(long[] a, long e) {
        for (int i = 0; i < EPOCH; i++) {
            COUNT.setOpaque(a, i, 0L);
        }
        COUNT.setRelease(a, EPOCH, e);
    }

    /** Each array of the current epoch (the others read as zeros), for the readers. */
    void forEachArray(Consumer<long[]> action) {
        long e = epoch;
        counts.forEach(a -> {
            if ((long) COUNT.getAcquire(a, EPOCH) == e) {
                action.accept(a);
            }
        });
        long[] a = offLoop;
        if (a != null && (long) COUNT.getAcquire(a, EPOCH) == e) {
            action.accept(a);
        }
    }

    public long get(Count c) {
        int i = c.ordinal();
        long[] sum = new long[1];
        forEachArray(a -> sum[0] += (long) COUNT.getOpaque(a, i));
        return sum[0];
    }

    /** A response of {@code status} went out (hrsp_1xx ... hrsp_other). */
    public void response(int status) {
        // Indexed, not through Count.values(), which copies its array at each call.
        int i = status >= 100 && status < 600 ? Count.HRSP_1XX.ordinal() + status / 100 - 1 : Count.HRSP_OTHER.ordinal();
        add(i, 1);
    }

    /** A session started here (a frontend's accept, a backend's or server's assignment): rate and last date. */
    public void sessionStarted() {
        sessionRate.add();
    }

    /** A request arrived (req_rate; req_tot is {@link Count#REQUESTS}). */
    public void requestStarted() {
        requestRate.add();
    }

    /** A connection was accepted (conn_rate). */
    public void connectionAccepted() {
        connectionRate.add();
    }

    /** The times of an ended transaction, in ms: queue, connect, response, total (negative: did not happen). */
    public void times(long queue, long connect, long response, long total) {
        long[] cell = loopArray();
        boolean shared = cell == null;
        if (shared) {
            cell = offLoopArray();
        }
        queueTime.add(cell, queue, shared);
        connectTime.add(cell, connect, shared);
        responseTime.add(cell, response, shared);
        totalTime.add(cell, total, shared);
        connectHistogram.add(cell, connect, shared);
        responseHistogram.add(cell, response, shared);
        totalHistogram.add(cell, total, shared);
    }

    /** Connect times (Tc), for the Prometheus histograms HAProxy lacks. */
    public LatencyHistogram connectHistogram() {
        return connectHistogram;
    }

    /** Response times (Tr). */
    public LatencyHistogram responseHistogram() {
        return responseHistogram;
    }

    /** Total times (Tt). */
    public LatencyHistogram totalHistogram() {
        return totalHistogram;
    }

    public RateCounter sessionRate() {
        return sessionRate;
    }

    public RateCounter requestRate() {
        return requestRate;
    }

    public RateCounter connectionRate() {
        return connectionRate;
    }

    public SlidingAverage queueTime() {
        return queueTime;
    }

    public SlidingAverage connectTime() {
        return connectTime;
    }

    public SlidingAverage responseTime() {
        return responseTime;
    }

    public SlidingAverage totalTime() {
        return totalTime;
    }

    /** When the last session started here, or 0 if none did. */
    public long lastSessionMillis() {
        return sessionRate.lastMillis();
    }

    /** {@code clear counters}: the maxima only. */
    public void clearMax() {
        sessionRate.resetMax();
        requestRate.resetMax();
        connectionRate.resetMax();
        queueTime.resetMax();
        connectTime.resetMax();
        responseTime.resetMax();
        totalTime.resetMax();
    }

    /** {@code clear counters all}: everything. */
    public void clearAll() {
        clearMax();
        synchronized (this) {
            epoch++;
        }
        sessionRate.resetLast();
    }
}
