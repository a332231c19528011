package io.fulcrum.log;

import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends log messages from one thread of its own, so that an event loop never waits for a log target:
 * loops put messages in a bounded lock-free queue and go on; when it is full the message is dropped and
 * counted ({@link #dropped()}), as HAProxy drops what its log targets cannot take.
 */
public final class LogSender implements AutoCloseable {
    static final int CAPACITY = 16384;

    private final Queue<LogMessage> queue = PlatformDependent.newFixedMpscQueue(CAPACITY);
    private final LongAdder dropped = new LongAdder();
    private final String host;
    private final long pid = ProcessHandle.current().pid();
    private final Thread thread;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean sleeping;
    private volatile boolean closed;

    /** Used by the sender thread only. */
    private final LogWriters writers;
    private final Map<LogTarget, long[]> sampled = new IdentityHashMap<>();
    private final StringBuilder header = new StringBuilder(128);
    private byte[] frame = new byte[LogTarget.DEFAULT_LENGTH + 1];

    /**
     * @param host  the {@code log-send-hostname} name, or null
     * @param sinks the rings {@code ring@} targets name
     */
    LogSender(String host, Sinks sinks) {
        this.host = host;
        this.writers = new LogWriters(sinks);
        this.thread = new Thread(this::run, "fulcrum-log");
        thread.setDaemon(true);
    }

    /** Queues {@code m}; never blocks. False when the queue was full and the message dropped. */
    boolean offer(LogMessage m) {
        if (!started.get() && started.compareAndSet(false, true)) {
            thread.start(); // a process that logs nothing has no sender thread
        }
        if (!queue.offer(m)) {
            dropped.increment();
            return false;
        }
        // The queue's store must be visible before "sleeping" is read, or both sides could miss the other.
        VarHandle.fullFence();
        if (sleeping) {
            LockSupport.unpark(thread);
        }
        return true;
    }

    /** Messages dropped because the queue was full or a target refused them. */
    public long dropped() {
        return dropped.sum();
    }

    private void run() {
        for (;;) {
            LogMessage m = queue.poll();
            if (m != null) {
                send(m);
                continue;
            }
            if (closed) {
                break;
            }
            sleeping = true;
            if (queue.isEmpty() && !closed) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
            sleeping = false;
        }
        writers.close();
    }

    private void send(LogMessage m) {
        ReceivedLog received = m.received() ? new ReceivedLog(m.text()) : null;
        // A received message without PRI passes every level filter and goes at the line's minimum level.
        int messageLevel = received == null ? m.level() : Math.max(received.level, Syslog.EMERG);
        for (LogTarget t : m.targets()) {
            int level = t.levelFor(messageLevel);
            if (level < 0 || t.sampling() != null && !t.sampling().takes(sampled.computeIfAbsent(t, k -> new long[1])[0]++)) {
                continue;
            }
            int facility = received == null || received.facility < 0 ? t.facility() : received.facility;
            // As HAProxy: a line to a datagram socket is cut at len, then gets its newline; one to stdout or
            // stderr has the newline within len.
            int max = t.destination() instanceof LogDestination.Stream ? t.maxLength() - 1 : t.maxLength();
            Ring ring = t.destination() instanceof LogDestination.Ring r ? writers.ring(r) : null;
            if (ring != null && !announceDropped(ring, t, facility, m, max)) {
                continue; // as HAProxy: the message is dropped too, after the count, so that the announcement stays in order
            }
            header.setLength(0);
            int from = 0;
            if (received == null) {
                SyslogHeader.append(header, t.format(), facility, level, m.epochMicros(), host, m.tag(), pid, m.sd());
            } else {
                from = received.header(header, t.format(), facility, level, m.epochMicros(), host);
            }
            int length = frame(header, m.text(), from, max);
            try {
                // A ring counts what it drops itself (show events), as HAProxy's sinks: not in DroppedLogs.
                if (!writers.write(t.destination(), frame, length) && ring == null) {
                    dropped.increment();
                }
            } catch (IOException | RuntimeException e) {
                dropped.increment();
            }
        }
    }

    /**
     * Writes "N event(s) dropped" (at level notice, in the ring's format) when the ring dropped messages since the
     * last announcement, as HAProxy's sink_announce_dropped. False when it could not (the ring is still full): the
     * current message is then dropped and counted too.
     */
    private boolean announceDropped(Ring ring, LogTarget t, int facility, LogMessage m, int max) {
        long lost = ring.dropped();
        if (lost == 0) {
            return true;
        }
        header.setLength(0);
        SyslogHeader.append(header, t.format(), facility, Syslog.NOTICE, m.epochMicros(), host, m.tag(), pid, null);
        byte[] text = (lost + (lost == 1 ? " event dropped" : " events dropped")).getBytes(StandardCharsets.US_ASCII);
        int length = frame(header, text, 0, max);
        if (!ring.write(frame, length - 1)) { // a ring keeps messages without their newline
            ring.drop();
            return false;
        }
        ring.announced(lost);
        return true;
    }

    /** Puts header and text from {@code from}, cut to {@code max} bytes, then a newline in {@link #frame}; returns the length. */
    private int frame(StringBuilder head, byte[] text, int from, int max) {
        int h = Math.min(head.length(), max);
        int t = Math.min(text.length - from, max - h);
        if (frame.length < h + t + 1) {
            frame = new byte[Math.max(h + t + 1, frame.length * 2)];
        }
        for (int i = 0; i < h; i++) {
            frame[i] = (byte) head.charAt(i);
        }
        System.arraycopy(text, from, frame, h, t);
        frame[h + t] = '\n';
        return h + t + 1;
    }

    /** Sends what is queued (for at most two seconds), then stops the thread. */
    @Override
    public void close() {
        closed = true;
        if (!started.get()) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
