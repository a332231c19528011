package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A cell per loop, made on first use; readers see the cells made so far. The test thread counts as the first loop. */
class PerLoopTest {
    @Test
    void cellsAreMadeOnFirstUseAndFoundByIndex() {
        AtomicInteger made = new AtomicInteger();
        PerLoop<int[]> cells = new PerLoop<>(() -> new int[]{made.incrementAndGet()});
        assertThat(cells.width()).isZero();
        assertThat(cells.at(0)).isNull();
        int[] mine = cells.mine();
        assertThat(cells.mine()).isSameAs(mine);
        assertThat(made).hasValue(1);
        assertThat(cells.width()).isEqualTo(1);
        assertThat(cells.at(0)).isSameAs(mine);
        assertThat(cells.at(1)).isNull();
        List<int[]> seen = new ArrayList<>();
        cells.forEach(seen::add);
        assertThat(seen).containsExactly(mine);
    }
}
