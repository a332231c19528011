package io.fulcrum.listener;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** HAProxy's multi-queue choice of a loop for each accepted connection, by the listener's connections per loop. */
class AcceptBalanceTest {

    @Test
    void aBurstOfLongConnectionsIsSplitEvenly() {
        AcceptBalance b = new AcceptBalance(2);
        int[] per = new int[2];
        for (int i = 0; i < 201; i++) {
            per[b.chooseFor(new EmbeddedChannel())]++;
        }
        assertThat(per[0] - per[1]).isBetween(-1, 1);
        assertThat(b.connections(0) + b.connections(1)).isEqualTo(201);
    }

    @Test
    void shortConnectionsVisitEveryLoopInTurn() {
        AcceptBalance b = new AcceptBalance(3);
        int[] per = new int[3];
        for (int i = 0; i < 30; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            per[b.chooseFor(c)]++;
            c.close();
        }
        assertThat(per).containsExactly(10, 10, 10);
        assertThat(b.connections(0) + b.connections(1) + b.connections(2)).as("each close counted").isZero();
    }

    @Test
    void aLoopWithFewerConnectionsTakesTheNewOnesUntilItCatchesUp() {
        AcceptBalance b = new AcceptBalance(2);
        List<EmbeddedChannel> onLoop0 = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            if (b.chooseFor(c) == 0) {
                onLoop0.add(c);
            }
        }
        // the connections of loop 0 end: the next ten all go there
        onLoop0.forEach(EmbeddedChannel::close);
        assertThat(b.connections(0)).isZero();
        assertThat(b.connections(1)).isEqualTo(10);
        for (int i = 0; i < 10; i++) {
            assertThat(b.chooseFor(new EmbeddedChannel())).isZero();
        }
        assertThat(b.connections(0)).isEqualTo(10);
    }

    @Test
    void aSocketPerLoopKeepsItsConnectionsUnlessItsLoopServesClearlyMore() {
        AcceptBalance b = new AcceptBalance(2);
        for (int i = 0; i < 5; i++) {
            assertThat(b.chooseFor(new EmbeddedChannel(), 1)).isEqualTo(1);
        }
        assertThat(b.chooseFor(new EmbeddedChannel(), 1)).as("5 against 0: past the slack of 4").isZero();
        assertThat(b.chooseFor(new EmbeddedChannel(), 0)).isZero();
    }
}
