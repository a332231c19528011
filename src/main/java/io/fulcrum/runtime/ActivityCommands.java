package io.fulcrum.runtime;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.netty.util.concurrent.SingleThreadEventExecutor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * {@code show activity} and {@code show threads} (management.txt 9.3): HAProxy 2.6's layout, one HAProxy thread per
 * event loop. A counter Fulcrum has no equivalent for (Netty does not tell task switches, the kernel's stolen CPU is
 * not read) is HAProxy's neutral 0, as docs/differences.md lists.
 */
final class ActivityCommands {
    private ActivityCommands() {
    }

    /** The counters of {@code show activity}, in HAProxy 2.6's order; null for those Fulcrum cannot know. */
    private record Line(String name, ToLongFunction<LoopActivity> value) {
    }

    private static final List<Line> LINES = List.of(
            new Line("ctxsw", null), new Line("tasksw", null), new Line("empty_rq", null), new Line("long_rq", null),
            new Line("loops", a -> a.loops), new Line("wake_tasks", a -> a.wakeTasks), new Line("wake_signal", null),
            new Line("poll_io", a -> a.pollIo), new Line("poll_exp", a -> a.pollExp), new Line("poll_drop_fd", null),
            new Line("poll_skip_fd", null), new Line("conn_dead", null), new Line("stream_calls", null),
            new Line("pool_fail", null), new Line("buf_wait", null), new Line("cpust_ms_tot", null),
            new Line("cpust_ms_1s", null), new Line("cpust_ms_15s", null));
    private static final List<Line> ACCEPT_LINES = List.of(
            new Line("accepted", a -> a.accepted), new Line("accq_pushed", a -> a.pushed), new Line("accq_full", null),
            new Line("accq_ring", null), new Line("fd_takeover", a -> a.takeovers));

    static void register(CliCommands c) {
        c.add("show activity", "show activity", "show per-thread activity stats (for support/developers)", CliLevel.USER,
                ActivityCommands::activity);
        c.add("show threads", "show threads", "show some threads debugging information", CliLevel.USER, ActivityCommands::threads);
    }

    private static void activity(CliRequest r) {
        List<LoopActivity> loops = r.process().loops().activities();
        StringBuilder b = new StringBuilder(2048);
        long now = System.currentTimeMillis();
        b.append("thread_id: ").append(r.thread() + 1).append(" (1..").append(loops.size()).append(")\n");
        b.append("date_now: ").append(now / 1000).append('.').append(String.format("%06d", now % 1000 * 1000)).append('\n');
        LINES.forEach(l -> sum(b, l, loops));
        average(b, loops);
        ACCEPT_LINES.forEach(l -> sum(b, l, loops));
        r.print(b);
    }

    /** A counter: the total, then each thread's value when there are several. */
    private static void sum(StringBuilder b, Line l, List<LoopActivity> loops) {
        long[] v = new long[loops.size()];
        long total = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = l.value() == null ? 0 : l.value().applyAsLong(loops.get(i)) & 0xffffffffL; // HAProxy's are 32-bit
            total += v[i];
        }
        perThread(b.append(l.name()).append(": ").append(total & 0xffffffffL), v);
    }

    /** avg_loop_us: the threads' rounded average, then each thread's. */
    private static void average(StringBuilder b, List<LoopActivity> loops) {
        long[] v = new long[loops.size()];
        long total = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = loops.get(i).avgLoopMicros();
            total += v[i];
        }
        perThread(b.append("avg_loop_us: ").append(v.length == 0 ? 0 : (total + v.length / 2) / v.length), v);
    }

    private static void perThread(StringBuilder b, long[] v) {
        if (v.length > 1) {
            b.append(" [");
            for (long x : v) {
                b.append(' ').append(x);
            }
            b.append(" ]");
        }
        b.append('\n');
    }

    /**
     * One block per loop: its thread's id, whether it has work (tasks waiting: {@code rq}), whether it is waiting
     * in its poll ({@code harmless}) and the CPU time its thread used. The star marks the loop of the CLI's
     * connection (the command itself runs beside the loops).
     */
    private static void threads(CliRequest r) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        StringBuilder b = new StringBuilder(1024);
        List<LoopActivity> loops = r.process().loops().activities();
        for (int i = 0; i < loops.size(); i++) {
            LoopActivity a = loops.get(i);
            Thread t = a.thread;
            int pending = a.loop instanceof SingleThreadEventExecutor s ? s.pendingTasks() : 0;
            long cpu = t == null ? 0 : Math.max(0, mx.getThreadCpuTime(t.threadId()));
            b.append(i == r.thread() ? "* " : "  ").append("Thread ").append(i + 1).append(" : id=0x")
                    .append(Long.toHexString(t == null ? 0 : t.threadId())).append(" act=").append(pending > 0 ? 1 : 0)
                    .append(" glob=0 wq=0 rq=").append(pending).append(" tl=0 tlsz=0 rqsz=").append(pending).append('\n');
            b.append(String.format("      1/%-4d stuck=0 prof=0 harmless=%d wantrdv=0%n", i + 1, a.polling ? 1 : 0));
            b.append("             cpu_ns: poll=").append(cpu).append(" now=").append(cpu).append(" diff=0\n");
            b.append("             curr_task=0\n");
        }
        r.print(b.append('\n'));
    }
}
