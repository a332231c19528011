package io.fulcrum.runtime;

import io.netty.channel.EventLoop;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LoopClockTest {

    /** One loop pass reads the time once; the next pass (here, after a scheduled delay) reads it again. */
    @Test
    void aLoopPassSharesOneReadingAndTheNextReadsAgain() throws Exception {
        EventLoops loops = new EventLoops(1, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
        try {
            EventLoop loop = loops.next();
            long[] within = loop.submit(() -> {
                long first = LoopClock.nanoTime();
                long firstMillis = LoopClock.currentTimeMillis();
                Thread.sleep(5);
                return new long[] {first, LoopClock.nanoTime(), firstMillis, LoopClock.currentTimeMillis()};
            }).get(5, TimeUnit.SECONDS);
            assertThat(within[1]).isEqualTo(within[0]);
            assertThat(within[3]).isEqualTo(within[2]);
            long later = loop.schedule(LoopClock::nanoTime, 20, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
            assertThat(later - within[0]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        } finally {
            loops.shutdown();
        }
    }

    /** Off the loops, the system's clocks. */
    @Test
    void offTheLoopsTheSystemClock() throws Exception {
        long a = LoopClock.nanoTime();
        Thread.sleep(2);
        assertThat(LoopClock.nanoTime()).isGreaterThan(a);
    }
}
