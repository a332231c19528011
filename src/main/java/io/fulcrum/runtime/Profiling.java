package io.fulcrum.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * HAProxy's per-task CPU profiling ({@code profiling.tasks}, {@code set profiling tasks}, {@code show profiling}) in
 * the event loops: for each kind of work a loop runs (a task given to it, named by its code's class, or a pass of its
 * I/O handler), the calls, the CPU time of the loop's thread during them, and the latency of a task (from when it was
 * queued, or due for a timer, until it ran). A loop profiles as HAProxy's thread decides at each pass: always when
 * {@code on}, never when {@code off}; in {@code auto} its average loop time turns it on from 1 ms ({@code auto-on})
 * and off below 990 us ({@code auto-off}). When no loop profiles, a task costs one volatile read when it is queued.
 */
public final class Profiling {
    /** HAProxy's HA_PROF_TASKS_* values; their names as {@code show profiling} prints them. */
    static final int OFF = 0;
    static final int AUTO_OFF = 1;
    static final int AUTO_ON = 2;
    static final int ON = 3;
    static final String[] NAMES = {"off", "auto-off", "auto-on", "on"};

    /** HAProxy's thresholds of the average loop time, in microseconds. */
    private static final long UP = 1000;
    private static final long DOWN = UP * 99 / 100;

    private static volatile int mode = AUTO_OFF;
    /** How many loops profile now: tasks are measured only when one does. */
    private static final AtomicInteger PROFILING = new AtomicInteger();
    private static final Map<String, Kind> KINDS = new ConcurrentHashMap<>();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Profiling() {
    }

    /** What one kind of work cost, added up over the loops. */
    static final class Kind {
        final LongAdder calls = new LongAdder();
        final LongAdder cpuNanos = new LongAdder();
        final LongAdder latencyNanos = new LongAdder();
    }

    static int mode() {
        return mode;
    }

    /** {@code profiling.tasks} and {@code set profiling tasks}: {@code on} also forgets what was measured, as HAProxy. */
    static void set(String word) {
        switch (word) {
            case "on" -> {
                mode = ON;
                KINDS.clear();
            }
            case "auto" -> mode = mode >= AUTO_ON ? AUTO_ON : AUTO_OFF;
            case "off" -> mode = OFF;
            default -> throw new IllegalArgumentException(word);
        }
    }

    static Map<String, Kind> kinds() {
        return KINDS;
    }

    /** At each pass of a loop, before it polls: whether it profiles from now on, by HAProxy's rules. */
    static void pass(LoopActivity a) {
        int m = mode;
        if (!a.profiling) {
            if (m == ON || m == AUTO_ON && a.avgLoopMicros() >= UP) {
                a.profiling = true;
                PROFILING.incrementAndGet();
            }
        } else if (m == OFF || m == AUTO_OFF && a.avgLoopMicros() <= DOWN) {
            a.profiling = false;
            PROFILING.decrementAndGet();
        }
    }

    /** The calling thread's CPU time, in nanoseconds. */
    static long cpuNow() {
        return THREADS.getCurrentThreadCpuTime();
    }

    static void count(String kind, long cpuNanos, long latencyNanos) {
        Kind k = KINDS.computeIfAbsent(kind, x -> new Kind());
        k.calls.increment();
        k.cpuNanos.add(Math.max(0, cpuNanos));
        k.latencyNanos.add(Math.max(0, latencyNanos));
    }

    /** A loop's task queue that measures the tasks queued while a loop profiles (Netty's queue otherwise). */
    static Queue<Runnable> taskQueue(Queue<Runnable> netty) {
        return new TaskQueue(netty);
    }

    private static final class TaskQueue extends AbstractQueue<Runnable> {
        private final Queue<Runnable> delegate;

        TaskQueue(Queue<Runnable> delegate) {
            this.delegate = delegate;
        }

        @Override
        public boolean offer(Runnable task) {
            return delegate.offer(PROFILING.get() == 0 ? task : new Measured(task));
        }

        @Override
        public Runnable poll() {
            return delegate.poll();
        }

        @Override
        public Runnable peek() {
            return delegate.peek();
        }

        @Override
        public int size() {
            return delegate.size();
        }

        @Override
        public boolean isEmpty() {
            return delegate.isEmpty();
        }

        @Override
        public Iterator<Runnable> iterator() {
            return delegate.iterator();
        }

        @Override
        public boolean remove(Object task) {
            return delegate.remove(task);
        }
    }

    /** A task and when it was ready to run (queued, or due for a timer's task that Netty queues once due). */
    private record Measured(Runnable task, long ready) implements Runnable {
        Measured(Runnable task) {
            this(task, System.nanoTime() + (task instanceof Delayed d ? Math.min(0, d.getDelay(TimeUnit.NANOSECONDS)) : 0));
        }

        @Override
        public void run() {
            long latency = System.nanoTime() - ready;
            long cpu = cpuNow();
            try {
                task.run();
            } finally {
                count(kindOf(task), cpuNow() - cpu, latency);
            }
        }
    }

    /** The kind of a task waiting in a loop's queue ({@code show tasks}). */
    static String queuedKind(Runnable task) {
        return kindOf(task instanceof Measured m ? m.task : task);
    }

    /** How long a queued task has waited to run, known for those queued while a loop profiled (0 for the others). */
    static long waited(Runnable task, long now) {
        return task instanceof Measured m ? Math.max(0, now - m.ready) : 0;
    }

    /** The code a task runs, named by its class (a lambda by the class that wrote it; Netty's wrappers are looked into). */
    static String kindOf(Object task) {
        Object t = task;
        for (int depth = 0; depth < 3; depth++) {
            Field f = INNER.get(t.getClass());
            Object inner = null;
            try {
                inner = f == null ? null : f.get(t);
            } catch (IllegalAccessException e) {
                // not looked into
            }
            if (inner == null) {
                break;
            }
            t = inner;
        }
        String name = t.getClass().getName();
        int lambda = name.indexOf("$$Lambda");
        name = lambda >= 0 ? name.substring(0, lambda) + ".lambda" : name;
        return name.substring(name.lastIndexOf('.', lambda >= 0 ? lambda - 1 : name.length()) + 1);
    }

    /** Netty's task wrappers ({@code PromiseTask}, its scheduled kind, {@code RunnableAdapter}): their {@code task} field. */
    private static final ClassValue<Field> INNER = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            if (!type.getName().startsWith("io.netty.util.concurrent.")) {
                return null;
            }
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                try {
                    Field f = c.getDeclaredField("task");
                    f.setAccessible(true);
                    return f;
                } catch (NoSuchFieldException | RuntimeException e) {
                    // next class up
                }
            }
            return null;
        }
    };
}
