package io.fulcrum.runtime;

import io.netty.util.concurrent.ThreadAwareExecutor;

/**
 * One event loop's activity counters ({@code show activity}, {@code show threads}). Written by the loop's own
 * thread only, with plain writes; the CLI reads them racily, as HAProxy reads its per-thread counters: a value
 * a few events old is fine for counters meant to be compared between two calls.
 */
public final class LoopActivity {
    /** Weight of the newest sample in the loop-time average, as HAProxy's swrate over 512 samples. */
    private static final int SAMPLES = 512;

    final ThreadAwareExecutor loop;
    /** The loop's thread and its index ({@link EventLoops#threadIndex()}), once it runs. */
    volatile Thread thread;
    volatile int index = -1;
    volatile ActivityIoHandler handler;
    /** Times the loop polled for I/O. */
    long loops;
    /** Polls that reported I/O events. */
    long pollIo;
    /** Polls that returned without events (a timer expired, or the poll did not wait). */
    long pollExp;
    /** Times another thread woke the loop up to give it a task. */
    long wakeTasks;
    /** Connections accepted by a listener of this loop. */
    long accepted;
    /** Connections handed to this loop by a listener that spreads them over several loops (accq_pushed). */
    long pushed;
    /** Idle server connections this loop took over from another loop (fd_takeover). */
    long takeovers;
    /** True while the thread waits in (or runs) its poll: it holds nothing another thread might wait for. */
    volatile boolean polling;
    /** True while the loop measures its work for {@code show profiling} ({@link Profiling#pass}). */
    boolean profiling;
    /** Sliding average of the time between two polls (running tasks), nanoseconds times {@link #SAMPLES}. */
    long loopNanosSum;
    long lastPollEnd;

    LoopActivity(ThreadAwareExecutor loop) {
        this.loop = loop;
    }

    void started(Thread t, ActivityIoHandler h) {
        handler = h;
        index = EventLoops.threadIndex();
        thread = t;
        EventLoops.attach(this);
    }

    void pollStarts(long now) {
        loops++;
        if (lastPollEnd != 0) {
            loopNanosSum += now - lastPollEnd - loopNanosSum / SAMPLES;
        }
        Profiling.pass(this);
        polling = true;
    }

    void pollEnds(int events, long now) {
        polling = false;
        lastPollEnd = now;
        if (events > 0) {
            pollIo++;
        } else {
            pollExp++;
        }
    }

    /** Counts a connection accepted on the calling loop. */
    public static void accepted() {
        LoopActivity a = EventLoops.currentActivity();
        if (a != null) {
            a.accepted++;
        }
    }

    /**
     * Counts a connection given to the calling loop by a listener that chose it among several: HAProxy's accq_pushed,
     * which counts every connection its multi-queue listeners push to a thread's accept queue, its own included.
     */
    public static void pushed() {
        LoopActivity a = EventLoops.currentActivity();
        if (a != null) {
            a.pushed++;
        }
    }

    /** Counts an idle server connection the calling loop took over from another loop. */
    public static void tookOver() {
        LoopActivity a = EventLoops.currentActivity();
        if (a != null) {
            a.takeovers++;
        }
    }

    /** {@code clear counters}: HAProxy resets these too. */
    void clear() {
        loops = 0;
        pollIo = 0;
        pollExp = 0;
        wakeTasks = 0;
        accepted = 0;
        pushed = 0;
        takeovers = 0;
    }

    /** The average time between two polls, in microseconds. */
    long avgLoopMicros() {
        return loopNanosSum / SAMPLES / 1000;
    }
}
