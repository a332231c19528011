package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AveragesTest {

    @Test
    void theFirstValuesGiveTheirTrueAverage() {
        SlidingAverage a = new SlidingAverage();
        assertThat(a.average()).isZero();
        a.add(10);
        a.add(20);
        a.add(30);
        assertThat(a.average()).isEqualTo(20);
        assertThat(a.max()).isEqualTo(30);
    }

    @Test
    void oldValuesFadeOnceTheWindowIsFull() {
        SlidingAverage a = new SlidingAverage();
        for (int i = 0; i < SlidingAverage.SAMPLES; i++) {
            a.add(1000);
        }
        assertThat(a.average()).isEqualTo(1000);
        for (int i = 0; i < 10 * SlidingAverage.SAMPLES; i++) {
            a.add(0);
        }
        assertThat(a.average()).isLessThan(10);
        assertThat(a.max()).isEqualTo(1000);
    }

    @Test
    void negativeTimesCountAsZero() {
        SlidingAverage a = new SlidingAverage();
        a.add(-1);
        a.add(4);
        assertThat(a.average()).isEqualTo(2);
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
