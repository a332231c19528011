package io.fulcrum.stream;

import io.fulcrum.runtime.EventLoops;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The live streams of one event loop, for the CLI. Why this shape: a stream joins and leaves on its own loop,
 * so the list is the loop's alone (no lock, no atomic, no allocation: the links are fields of the stream, and
 * the ids come from the loop's own counter, above the loop's number so that they are unique in the process).
 * The CLI never reads it from its own thread: it posts a task to each loop ({@link #collect}, {@link #each}),
 * which costs the data path nothing until an operator asks, and then only that task's time.
 */
public final class LiveStreams {
    private static final FastThreadLocal<LiveStreams> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected LiveStreams initialValue() {
            return new LiveStreams(EventLoops.threadIndex());
        }
    };
    /** Ids are {@code (loop + 1) << SHIFT | n}: they look like HAProxy's pointers and never repeat in practice. */
    private static final int SHIFT = 40;

    private final long base;
    private long sequence;
    private LiveStream head;

    private LiveStreams(int loop) {
        this.base = (long) (loop + 1) << SHIFT;
    }

    static LiveStreams current() {
        return PER_LOOP.get();
    }

    /** The newest stream; the others follow by {@link LiveStream#next}. */
    LiveStream head() {
        return head;
    }

    void add(LiveStream s) {
        sequence = sequence + 1 & (1L << SHIFT) - 1;
        s.id = base | sequence;
        s.prev = null;
        s.next = head;
        if (head != null) {
            head.prev = s;
        }
        head = s;
    }

    void remove(LiveStream s) {
        if (s.prev != null) {
            s.prev.next = s.next;
        } else if (head == s) {
            head = s.next;
        }
        if (s.next != null) {
            s.next.prev = s.prev;
        }
        s.prev = null;
        s.next = null;
        s.id = 0;
    }

    /**
     * The views of the streams that {@code filter} keeps, oldest first within each loop; taken on each loop in
     * turn, from the CLI's thread (which may wait).
     */
    public static List<StreamView> collect(EventLoops loops, Predicate<LiveStream> filter) {
        List<StreamView> all = new ArrayList<>();
        for (EventExecutor loop : loops.group()) {
            Future<List<StreamView>> f = loop.submit(() -> {
                List<StreamView> views = new ArrayList<>();
                for (LiveStream s = current().head; s != null; s = s.next) {
                    if (filter.test(s)) {
                        views.add(s.view());
                    }
                }
                return views.reversed();
            });
            all.addAll(f.syncUninterruptibly().getNow());
        }
        return all;
    }

    /**
     * Runs {@code action} on each stream that {@code filter} keeps, on the stream's loop; returns how many there
     * were. Called from the CLI's thread, which waits, or from any thread that does not wait (then 0).
     */
    public static int each(EventLoops loops, Predicate<LiveStream> filter, Consumer<LiveStream> action, boolean wait) {
        int n = 0;
        for (EventExecutor loop : loops.group()) {
            Future<Integer> f = loop.submit(() -> {
                List<LiveStream> chosen = new ArrayList<>();
                for (LiveStream s = current().head; s != null; s = s.next) {
                    if (filter.test(s)) {
                        chosen.add(s); // acted on after the walk: acting may take streams off the list
                    }
                }
                chosen.forEach(action);
                return chosen.size();
            });
            if (wait) {
                n += f.syncUninterruptibly().getNow();
            }
        }
        return n;
    }

    /** True when {@code s} is the stream {@code id}. */
    public static Predicate<LiveStream> withId(long id) {
        return s -> s.id == id;
    }
}
