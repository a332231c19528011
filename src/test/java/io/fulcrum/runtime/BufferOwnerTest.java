package io.fulcrum.runtime;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BufferOwnerTest {

    @Test
    void countsEachBufferItHandsOutByKindWithItsCapacityUntilReset() {
        BufferOwner o = BufferOwner.CHECK; // no health check runs in this test
        o.reset();
        ByteBuf d1 = o.directBuffer(100);
        ByteBuf d2 = o.ioBuffer(300);
        ByteBuf h = o.heapBuffer(50);
        ByteBuf composite = o.compositeDirectBuffer();
        try {
            assertThat(o.total(BufferOwner.DIRECT)).isEqualTo(2);
            assertThat(o.total(BufferOwner.DIRECT + 1)).isEqualTo(d1.capacity() + d2.capacity()).isGreaterThanOrEqualTo(400);
            assertThat(o.total(BufferOwner.HEAP)).isEqualTo(1);
            assertThat(o.total(BufferOwner.HEAP + 1)).isEqualTo(h.capacity());
        } finally {
            d1.release();
            d2.release();
            h.release();
            composite.release();
        }
        o.reset();
        assertThat(o.total(BufferOwner.DIRECT)).isZero();
        assertThat(o.total(BufferOwner.HEAP + 1)).isZero();
    }
}
