package io.fulcrum.pool;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which connections coming back from a transaction the pool keeps (HAProxy's srv_add_to_idle_list()), and the
 * counts it keeps for them. The test thread is no event loop: it counts in the first loop's cell.
 */
class ServerIdleTest {

    private static ServerIdle idle(Consumer<PoolSettings> options) {
        ServerSpec s = new ServerSpec();
        s.name = "s1";
        s.endpoint = new Endpoint.Inet(InetAddress.getLoopbackAddress(), 80, Endpoint.Family.ANY);
        options.accept(s.part(PoolSettings.class, PoolSettings::new));
        return ServerIdle.of(new Server("be", s, 1));
    }

    /** Takes a connection in use back into the pool, as ServerPool.release() and H1ServerConnection.detach() do. */
    private static boolean release(ServerIdle idle, boolean isSafe, boolean loopHasSafe, boolean loopHasIdle) {
        boolean kept = idle.admit(idle.cells.mine(), isSafe, loopHasSafe, loopHasIdle);
        idle.unused();
        return kept;
    }

    /** A loop with no idle connection keeps one even with no estimate; more only within the estimated need. */
    @Test
    void keepsWhatTheNeedEstimateAllows() {
        ServerIdle idle = idle(p -> { });
        idle.used();
        idle.used();
        idle.used();
        assertThat(idle.estimate()).isEqualTo(3);
        assertThat(idle.maxUsed()).isEqualTo(3);
        assertThat(release(idle, false, false, false)).as("the loop's first").isTrue();
        assertThat(release(idle, false, false, true)).as("2 used + 1 idle <= 3").isTrue();
        assertThat(release(idle, false, false, true)).as("1 used + 2 idle <= 3").isTrue();
        assertThat(idle.idleCount()).isEqualTo(3);
        assertThat(idle.usedCount()).isZero();
        idle.used(); // one more in use: the estimate stays at the most used at once
        assertThat(idle.estimate()).isEqualTo(3);
        assertThat(release(idle, false, false, true)).as("1 used + 3 idle > 3").isFalse();
        assertThat(idle.idleCount()).isEqualTo(3);
        assertThat(idle.usedCount()).isZero();
    }

    /** A safe connection is kept when the loop has no safe one yet, whatever its idle ones; the safe ones are counted apart. */
    @Test
    void firstSafeConnectionOfALoopIsKept() {
        ServerIdle idle = idle(p -> { });
        idle.used();
        assertThat(release(idle, false, false, false)).isTrue();
        idle.used();
        idle.used();
        idle.unused();
        assertThat(release(idle, true, false, true)).as("1 used + 1 idle <= 2, and the loop's first safe one").isTrue();
        assertThat(idle.idleCount()).isEqualTo(2);
        assertThat(idle.safeCount()).isEqualTo(1);
        ServerIdle.leave(idle.cells.mine(), true);
        assertThat(idle.idleCount()).isEqualTo(1);
        assertThat(idle.safeCount()).isZero();
    }

    /** pool-low-conn idle connections are kept above the estimate; pool-max-conn bounds them; a purge delay of 0 keeps none. */
    @Test
    void lowMaxAndPurgeDelayBoundThePool() {
        ServerIdle low = idle(p -> p.lowConn = 2);
        for (int i = 0; i < 4; i++) {
            low.used();
        }
        for (int i = 0; i < 4; i++) {
            assertThat(release(low, false, false, i > 0)).isTrue();
        }
        for (int i = 0; i < 4; i++) {
            low.used();
            release(low, false, false, true);
        }
        assertThat(low.idleCount()).as("the estimate (4) and pool-low-conn (2)").isEqualTo(6);

        ServerIdle max = idle(p -> p.maxConn = 1);
        max.used();
        max.used();
        assertThat(release(max, false, false, false)).isTrue();
        assertThat(release(max, true, false, true)).as("pool-max-conn 1").isFalse();
        assertThat(max.idleCount()).isEqualTo(1);

        ServerIdle none = idle(p -> p.purgeDelay = 0);
        none.used();
        assertThat(release(none, false, false, false)).isFalse();
        assertThat(none.idleCount()).isZero();
    }

    /** The counts of a loop are in its own cell; the reads add the cells up. */
    @Test
    void countsAreKeptInTheLoopsCell() {
        ServerIdle idle = idle(p -> { });
        AtomicLongArray mine = idle.cells.mine();
        idle.used();
        assertThat(mine.get(ServerIdle.USED)).isEqualTo(1);
        assertThat(release(idle, true, false, false)).isTrue();
        assertThat(mine.get(ServerIdle.IDLE)).isEqualTo(1);
        assertThat(mine.get(ServerIdle.SAFE)).isEqualTo(1);
        assertThat(idle.idleIn(0)).isEqualTo(1);
        assertThat(idle.idleIn(1)).isZero();
    }

    /**
     * Under a load that rises then falls: the estimate follows the connections in use at once; each purge period
     * it falls halfway to the most used in the period, and half of the idle connections above it (rounded up), plus
     * one for the single loop holding them, are to be closed (the test thread is no loop: nothing is really closed,
     * the idle count stays).
     */
    @Test
    void estimateFollowsTheLoadAndThePurgeClosesHalfTheExcess() {
        ServerIdle idle = idle(p -> { });
        for (int i = 0; i < 6; i++) {
            idle.used();
        }
        for (int i = 0; i < 6; i++) {
            assertThat(release(idle, false, false, i > 0)).isTrue();
        }
        assertThat(idle.estimate()).isEqualTo(6);
        assertThat(idle.purgeOnce()).as("6 idle, 6 needed").isZero();
        assertThat(idle.estimate()).isEqualTo(6);
        assertThat(idle.maxUsed()).isZero();
        for (int i = 0; i < 2; i++) { // the load falls: two at most in use during the next period
            ServerIdle.leave(idle.cells.mine(), false);
            idle.used();
        }
        for (int i = 0; i < 2; i++) {
            assertThat(release(idle, false, false, true)).isTrue();
        }
        assertThat(idle.maxUsed()).isEqualTo(2);
        assertThat(idle.purgeOnce()).as("the estimate still covers them").isZero();
        assertThat(idle.estimate()).isEqualTo(4);
        assertThat(idle.purgeOnce()).as("6 idle, 4 needed: half of 2, plus one").isEqualTo(2);
        assertThat(idle.estimate()).isEqualTo(2);
        assertThat(idle.purgeOnce()).as("6 idle, 2 needed: half of 4, plus one").isEqualTo(3);
        assertThat(idle.estimate()).isEqualTo(1);
        idle.used();
        idle.used(); // the load rises again: the estimate is at least what is in use
        assertThat(idle.estimate()).isEqualTo(2);
    }
}
