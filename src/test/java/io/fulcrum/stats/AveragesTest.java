package io.fulcrum.stats;

import io.fulcrum.runtime.EventLoops;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statistics of {@link Counters}: averages, counts and histograms, counted by the event loops in arrays of their
 * own (plain stores) and off the loops in a shared one (atomic operations); every reading sums them; a clear starts
 * them all again. The averages' tests run on a loop and off the loops.
 */
class AveragesTest {
    private static EventLoops loops;

    @BeforeAll
    static void start() {
        loops = new EventLoops(2, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
    }

    @AfterAll
    static void stop() {
        loops.shutdown();
    }

    /** Runs {@code task} on loop {@code loop}, or on the calling thread (off the loops) when -1. */
    private static void on(int loop, Runnable task) throws Exception {
        if (loop < 0) {
            task.run();
        } else {
            loops.all().get(loop).submit(task).get(5, TimeUnit.SECONDS);
        }
    }

    /** Adds {@code value} to the queue-time average of {@code c}. */
    private static void queueTime(Counters c, long value) {
        c.times(value, -1, -1, -1);
    }

    @ParameterizedTest(name = "loop {0}")
    @ValueSource(ints = {-1, 0})
    void theFirstValuesGiveTheirTrueAverage(int loop) throws Exception {
        Counters c = new Counters();
        assertThat(c.queueTime().average()).isZero();
        on(loop, () -> {
            queueTime(c, 10);
            queueTime(c, 20);
            queueTime(c, 30);
        });
        assertThat(c.queueTime().average()).isEqualTo(20);
        assertThat(c.queueTime().max()).isEqualTo(30);
        assertThat(c.connectTime().average()).as("times that did not happen").isZero();
    }

    @ParameterizedTest(name = "loop {0}")
    @ValueSource(ints = {-1, 0})
    void oldValuesFadeOnceTheWindowIsFull(int loop) throws Exception {
        Counters c = new Counters();
        on(loop, () -> {
            for (int i = 0; i < SlidingAverage.SAMPLES; i++) {
                queueTime(c, 1000);
            }
        });
        assertThat(c.queueTime().average()).isEqualTo(1000);
        on(loop, () -> {
            for (int i = 0; i < 10 * SlidingAverage.SAMPLES; i++) {
                queueTime(c, 0);
            }
        });
        assertThat(c.queueTime().average()).isLessThan(10);
        assertThat(c.queueTime().max()).isEqualTo(1000);
    }

    @ParameterizedTest(name = "loop {0}")
    @ValueSource(ints = {-1, 0})
    void aNegativeTimeCountsAsZeroInAnAverageAndIsLeftOutOfAHistogram(int loop) throws Exception {
        Counters c = new Counters();
        on(loop, () -> {
            c.times(0, -1, 3, 4);
            c.times(4, -1, -1, 8);
        });
        assertThat(c.queueTime().average()).isEqualTo(2);
        assertThat(c.connectTime().average()).isZero();
        assertThat(c.responseTime().average()).as("(3 + 0) / 2, rounded up").isEqualTo(2);
        assertThat(c.totalTime().average()).isEqualTo(6);
        assertThat(c.totalHistogram().cumulative(LatencyHistogram.BOUNDS_MS.length - 1)).isEqualTo(2);
        assertThat(c.totalHistogram().sumMillis()).isEqualTo(12);
        assertThat(c.connectHistogram().cumulative(LatencyHistogram.BOUNDS_MS.length - 1)).isZero();
    }

    /**
     * Two loops and a thread off the loops count in arrays of their own, read together; clear counters all makes
     * every array read as zeros at once, a loop's own before that loop counts again, and each counts from zero after.
     */
    @Test
    void theArraysAddUpAndAClearStartsThemAllAgain() throws Exception {
        Counters c = new Counters();
        on(0, () -> {
            c.add(Counters.Count.BYTES_IN, 100);
            c.times(-1, 2, -1, 10);
        });
        on(1, () -> {
            c.add(Counters.Count.BYTES_IN, 20);
            c.times(-1, 4, -1, 30);
        });
        c.add(Counters.Count.BYTES_IN, 3);
        assertThat(c.get(Counters.Count.BYTES_IN)).isEqualTo(123);
        assertThat(c.connectTime().average()).isEqualTo(3);
        assertThat(c.totalTime().max()).isEqualTo(30);
        assertThat(c.totalHistogram().sumMillis()).isEqualTo(40);

        c.clearAll();
        assertThat(c.get(Counters.Count.BYTES_IN)).isZero();
        assertThat(c.connectTime().average()).isZero();
        assertThat(c.totalTime().max()).isZero();
        assertThat(c.totalHistogram().sumMillis()).isZero();

        on(1, () -> c.add(Counters.Count.BYTES_IN, 5));
        assertThat(c.get(Counters.Count.BYTES_IN)).as("loop 0's old array still reads as zeros").isEqualTo(5);
        on(0, () -> c.times(-1, 7, -1, -1));
        c.increment(Counters.Count.BYTES_IN);
        assertThat(c.get(Counters.Count.BYTES_IN)).isEqualTo(6);
        assertThat(c.connectTime().average()).as("loop 0 counted from zero").isEqualTo(7);
    }

    @Test
    void aRateCountsTheEventsOfTheLastSecond() {
        RateCounter r = new RateCounter();
        for (int i = 0; i < 50; i++) {
            r.add();
        }
        // Within the same second, or just after its end: the 50 events are still within the last 1000 ms.
        assertThat(r.rate()).isBetween(1L, 50L);
        assertThat(r.max()).isBetween(1L, 50L);
        r.resetMax();
        assertThat(r.max()).isZero();
    }

    /** HAProxy's maxima keep the most events one period counted (update_freq_ctr()), each event compared. */
    @Test
    void theHighestRateIsTheMostEventsOneSecondCounted() {
        for (int attempt = 0; attempt < 5; attempt++) {
            RateCounter r = new RateCounter();
            long before = System.currentTimeMillis();
            for (int i = 0; i < 50; i++) {
                r.add();
            }
            if (System.currentTimeMillis() / 1000 == before / 1000) { // (else a second ended amid them: again)
                assertThat(r.max()).isEqualTo(50);
                return;
            }
        }
        throw new AssertionError("no attempt fitted in one second");
    }

    /** A busier second than the current one stays the highest rate once left; a reset forgets it. */
    @Test
    void theHighestRateOutlivesItsSecond() throws InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            RateCounter r = new RateCounter();
            long before = System.currentTimeMillis();
            for (int i = 0; i < 50; i++) {
                r.add();
            }
            if (System.currentTimeMillis() / 1000 != before / 1000) {
                continue; // a second ended amid them: again
            }
            Thread.sleep(1000 - System.currentTimeMillis() % 1000 + 5);
            for (int i = 0; i < 3; i++) {
                r.add();
            }
            assertThat(r.max()).isEqualTo(50);
            r.resetMax();
            assertThat(r.max()).as("the 3 of this second, counted before the reset").isZero();
            r.add();
            assertThat(r.max()).as("the whole second's count, at its next event").isEqualTo(4);
            return;
        }
        throw new AssertionError("no attempt fitted in one second");
    }

    @Test
    void responsesAreCountedByClass() {
        Counters c = new Counters();
        c.response(101);
        c.response(204);
        c.response(302);
        c.response(404);
        c.response(503);
        c.response(600);
        c.response(42);
        assertThat(c.get(Counters.Count.HRSP_1XX)).isEqualTo(1);
        assertThat(c.get(Counters.Count.HRSP_2XX)).isEqualTo(1);
        assertThat(c.get(Counters.Count.HRSP_3XX)).isEqualTo(1);
        assertThat(c.get(Counters.Count.HRSP_4XX)).isEqualTo(1);
        assertThat(c.get(Counters.Count.HRSP_5XX)).isEqualTo(1);
        assertThat(c.get(Counters.Count.HRSP_OTHER)).isEqualTo(2);
        c.clearAll();
        assertThat(c.get(Counters.Count.HRSP_OTHER)).isZero();
    }
}
