package io.fulcrum.runtime;

import io.netty.channel.Channel;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.ObjLongConsumer;

/**
 * Wraps a loop's I/O handler to see what HAProxy's poller loop counts ({@code show activity}) and which sockets
 * the loop serves ({@code show fd}). Why here: every poll and every socket registration of a loop passes through
 * its handler, so the counters cost two clock reads per poll and the socket list costs nothing per connection
 * (its links are fields of the registration wrapper that is made anyway). Each epoll socket is registered through
 * a {@link CountingEpollHandle}, which counts the events the loop hands to it (one increment per event).
 *
 * <p>It also holds back the changes of a socket's epoll interest set until the loop polls again, as HAProxy's
 * fd update list does: a loop pass often changes a socket's set several times (a new connection is added, then
 * asked to read; a connected one stops waiting to write, is re-armed, then asked to read) and only the last
 * state matters to the next poll. One {@code epoll_ctl} instead of up to four per socket.
 */
final class ActivityIoHandler implements IoHandler {
    private final IoHandler delegate;
    private final ThreadAwareExecutor executor;
    private final LoopActivity activity;
    /** The loop's live registrations, most recent first; touched on the loop only. */
    private Registration head;
    /** Registrations with an interest set to submit before the next poll; touched on the loop only. */
    private Registration[] changed = new Registration[64];
    private int changedCount;

    /** The name under which {@code show profiling} counts the passes that handled I/O events. */
    private final String ioKind;

    private ActivityIoHandler(IoHandler delegate, ThreadAwareExecutor executor, LoopActivity activity) {
        this.delegate = delegate;
        this.ioKind = delegate.getClass().getSimpleName() + ".run";
        this.executor = executor;
        this.activity = activity;
    }

    /** {@code delegate}, counting into {@code activity}. */
    static ActivityIoHandler wrap(IoHandler delegate, ThreadAwareExecutor executor, LoopActivity activity) {
        return new ActivityIoHandler(delegate, executor, activity);
    }

    @Override
    public void initialize() {
        activity.started(Thread.currentThread(), this);
        delegate.initialize();
    }

    @Override
    public int run(IoHandlerContext context) {
        submitChanges();
        if (Thread.currentThread() instanceof EventLoops.LoopThread t) {
            LoopClock.passBegins(t);
        }
        activity.pollStarts(System.nanoTime());
        int events = 0;
        // (the CPU time of the poll itself is the kernel's: it is the events' handling that counts)
        boolean measured = activity.profiling;
        long cpu = measured ? Profiling.cpuNow() : 0;
        try {
            events = delegate.run(context);
            return events;
        } finally {
            activity.pollEnds(events, System.nanoTime());
            if (measured && events > 0) {
                Profiling.count(ioKind, Profiling.cpuNow() - cpu, 0);
            }
        }
    }

    @Override
    public void prepareToDestroy() {
        delegate.prepareToDestroy();
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        // An epoll socket's events are counted for show fd; the NIO selector's sockets have no descriptor to show.
        CountingEpollHandle counted = handle instanceof EpollIoHandle e ? new CountingEpollHandle(e) : null;
        Registration r = new Registration(delegate.register(counted != null ? counted : handle), handle, counted);
        r.next = head;
        if (head != null) {
            head.prev = r;
        }
        head = r;
        return r;
    }

    @Override
    public void wakeup() {
        if (!executor.isExecutorThread(Thread.currentThread())) {
            activity.wakeTasks++; // racy from several threads: a lost count is acceptable for a debug counter
        }
        delegate.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return delegate.isCompatible(handleType);
    }

    /**
     * Gives the channel of each live registration to {@code action}, with the I/O events the loop handed to it (-1
     * when not counted); on the loop.
     */
    void eachChannel(ObjLongConsumer<Channel> action) {
        for (Registration r = head; r != null; r = r.next) {
            Channel ch = r.isValid() ? channel(r.handle) : null;
            if (ch != null) {
                action.accept(ch, r.counted == null ? -1 : r.counted.events());
            }
        }
    }

    /** A channel's outer instance in Netty's I/O handles (its "unsafe"), found once per handle class. */
    private static final ClassValue<Field> OUTER = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (f.getName().startsWith("this$") && Channel.class.isAssignableFrom(f.getType())) {
                        f.setAccessible(true);
                        return f;
                    }
                }
            }
            return null;
        }
    };

    private static Channel channel(IoHandle handle) {
        Field f = OUTER.get(handle.getClass());
        try {
            return f == null ? null : (Channel) f.get(handle);
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    private void queue(Registration r) {
        if (changedCount == changed.length) {
            changed = Arrays.copyOf(changed, changedCount * 2);
        }
        changed[changedCount++] = r;
    }

    /** Submits the interest sets changed since the last poll (a submit may queue more: they are taken too). */
    private void submitChanges() {
        for (int i = 0; i < changedCount; i++) {
            Registration r = changed[i];
            changed[i] = null;
            r.submitPending();
        }
        changedCount = 0;
    }

    private void unlink(Registration r) {
        if (r.prev != null) {
            r.prev.next = r.next;
        } else if (head == r) {
            head = r.next;
        }
        if (r.next != null) {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
    }

    private final class Registration implements IoRegistration {
        private final IoRegistration delegate;
        /** The channel's own handle, and the wrapper registered in its place when its events are counted (or null). */
        private final IoHandle handle;
        private final CountingEpollHandle counted;
        private Registration prev;
        private Registration next;
        /** The epoll interest set to submit before the next poll, or null; on the loop only. */
        private EpollIoOps pending;
        /** The epoll interest set last submitted, -1 when none or unknown. */
        private int submitted = -1;

        Registration(IoRegistration delegate, IoHandle handle, CountingEpollHandle counted) {
            this.delegate = delegate;
            this.handle = handle;
            this.counted = counted;
        }

        @Override
        public <T> T attachment() {
            return delegate.attachment();
        }

        @Override
        public long submit(IoOps ops) {
            if (!(ops instanceof EpollIoOps epoll) || !executor.isExecutorThread(Thread.currentThread())) {
                submitted = -1;
                return EpollRegistrationFix.submit(delegate, ops);
            }
            if (pending == null) {
                queue(this);
            }
            pending = epoll;
            return epoll.value();
        }

        void submitPending() {
            EpollIoOps ops = pending;
            pending = null;
            if (ops == null || !delegate.isValid()) {
                return;
            }
            int value = ops.value();
            // The same set again changes nothing for a level-triggered socket (an edge-triggered one is re-armed).
            if (value == submitted && value != 0 && (value & EpollIoOps.EPOLLET.value()) == 0) {
                return;
            }
            try {
                EpollRegistrationFix.submit(delegate, ops);
                submitted = value;
            } catch (UncheckedIOException e) {
                // What the channel would have done had the change failed in its own call: close.
                try {
                    handle.close();
                } catch (Exception closing) {
                    // closed already
                }
            }
        }

        @Override
        public boolean isValid() {
            return delegate.isValid();
        }

        @Override
        public boolean cancel() {
            pending = null;
            boolean cancelled = delegate.cancel();
            if (executor.isExecutorThread(Thread.currentThread())) {
                unlink(this);
            } else {
                try {
                    executor.execute(() -> unlink(this));
                } catch (RejectedExecutionException e) {
                    // the loop is gone, and its list with it
                }
            }
            return cancelled;
        }
    }
}
