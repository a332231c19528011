package io.fulcrum.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ConnLimitTest {

    @Test
    void refusesPastTheLimitAndWakesAWaiterOnRelease() {
        ConnLimit l = new ConnLimit(2);
        assertThat(l.tryAcquire()).isTrue();
        assertThat(l.tryAcquire()).isTrue();
        assertThat(l.tryAcquire()).isFalse();
        AtomicInteger woken = new AtomicInteger();
        l.await(woken::incrementAndGet);
        assertThat(woken).hasValue(0);
        l.release();
        assertThat(woken).hasValue(1);
        assertThat(l.tryAcquire()).isTrue();
        l.release();
        assertThat(woken).as("a waiter is woken once").hasValue(1);
    }

    @Test
    void aWaiterRegisteredAfterTheReleaseIsWokenAtOnce() {
        ConnLimit l = new ConnLimit(1);
        AtomicInteger woken = new AtomicInteger();
        l.await(woken::incrementAndGet);
        assertThat(woken).hasValue(1);
    }

    @Test
    void zeroMeansNoLimit() {
        ConnLimit l = new ConnLimit(0);
        for (int i = 0; i < 10_000; i++) {
            assertThat(l.tryAcquire()).isTrue();
        }
        assertThat(l.current()).isEqualTo(10_000);
    }

    @Test
    void aLimitOfZeroSetAtRunTimeAdmitsNothingUntilRaised() {
        ConnLimit l = new ConnLimit(5);
        l.limitTo(0);
        assertThat(l.max()).isZero();
        assertThat(l.tryAcquire()).isFalse();
        AtomicInteger woken = new AtomicInteger();
        l.await(woken::incrementAndGet);
        assertThat(woken).hasValue(0);
        l.limitTo(1);
        assertThat(woken).hasValue(1);
        assertThat(l.tryAcquire()).isTrue();
        assertThat(l.tryAcquire()).isFalse();
    }

    @Test
    void whenEmptyRunsOnceAtTheLastRelease() {
        ConnLimit l = new ConnLimit(10);
        l.tryAcquire();
        l.tryAcquire();
        AtomicInteger runs = new AtomicInteger();
        l.whenEmpty(runs::incrementAndGet);
        l.release();
        assertThat(runs).hasValue(0);
        l.release();
        assertThat(runs).hasValue(1);
        l.tryAcquire();
        l.release();
        assertThat(runs).as("once only").hasValue(1);
    }

    @Test
    void whenEmptyRunsAtOnceWhenNothingIsTaken() {
        AtomicInteger runs = new AtomicInteger();
        new ConnLimit(1).whenEmpty(runs::incrementAndGet);
        assertThat(runs).hasValue(1);
    }
}
