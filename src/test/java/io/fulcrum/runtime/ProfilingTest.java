package io.fulcrum.runtime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Queue;

import static org.assertj.core.api.Assertions.assertThat;

class ProfilingTest {
    @AfterEach
    void autoAgain() {
        Profiling.set("off");
        Profiling.set("auto");
    }

    @Test
    void kindsAreNamedByTheirCodesClass() {
        Runnable lambda = () -> { };
        assertThat(Profiling.kindOf(lambda)).isEqualTo("ProfilingTest.lambda");
        assertThat(Profiling.kindOf(new Thread())).isEqualTo("Thread");
        assertThat(Profiling.kindOf(new java.util.TimerTask() {
            @Override
            public void run() {
            }
        })).isEqualTo("ProfilingTest$1");
    }

    /** HAProxy's rules: on profiles at once, off stops, auto keeps a profiling loop going only while it is loaded. */
    @Test
    void aLoopProfilesAsHAProxysThreads() {
        LoopActivity a = new LoopActivity(null);
        Profiling.set("on");
        Profiling.pass(a);
        assertThat(a.profiling).isTrue();
        Profiling.set("auto");
        assertThat(Profiling.NAMES[Profiling.mode()]).isEqualTo("auto-on");
        Profiling.pass(a);
        assertThat(a.profiling).as("auto-on only turns a loop on").isTrue();
        Profiling.set("off");
        Profiling.pass(a);
        assertThat(a.profiling).isFalse();
        Profiling.set("auto");
        assertThat(Profiling.NAMES[Profiling.mode()]).isEqualTo("auto-off");
        Profiling.pass(a);
        assertThat(a.profiling).as("an idle loop under auto-off").isFalse();
    }

    /** While a loop profiles, a queued task is measured as it runs; otherwise it is queued as it came. */
    @Test
    void tasksAreMeasuredOnlyWhileALoopProfiles() {
        Queue<Runnable> q = Profiling.taskQueue(new ArrayDeque<>());
        Runnable task = () -> { };
        q.offer(task);
        assertThat(q.poll()).isSameAs(task);
        LoopActivity a = new LoopActivity(null);
        Profiling.set("on");
        Profiling.pass(a);
        q.offer(task);
        Runnable measured = q.poll();
        assertThat(measured).isNotSameAs(task);
        assertThat(Profiling.queuedKind(measured)).isEqualTo("ProfilingTest.lambda");
        measured.run();
        assertThat(Profiling.kinds().get("ProfilingTest.lambda").calls.sum()).isEqualTo(1);
        Profiling.set("off");
        Profiling.pass(a);
        q.offer(task);
        assertThat(q.poll()).isSameAs(task);
    }

    @Test
    void timesAsHAProxyPrintsThem() {
        long[] nanos = {707_100, 12_100, 8_871_000, 5_037, 1_500_000_000L, 999};
        String[] printed = {"   707.1us", "   12.10us", "   8.871ms", "   5.037us", "   1.500s", "   999.0ns"};
        for (int i = 0; i < nanos.length; i++) {
            StringBuilder b = new StringBuilder();
            ProfilingCommands.time(b, nanos[i]);
            assertThat(b.toString()).isEqualTo(printed[i]);
        }
    }
}
