package io.fulcrum.compression;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ZlibMemoryTest {

    @AfterEach
    void noLimit() {
        ZlibMemory.limit(0);
    }

    @Test
    void aStreamHoldsItsMemoryUntilItIsClosedOnce() {
        long before = ZlibMemory.used();
        Encoder e = Encoder.of(Algo.GZIP, 1);
        assertThat(ZlibMemory.used()).isEqualTo(before + ZlibMemory.PER_STREAM);
        ByteBuf tail = e.finish(UnpooledByteBufAllocator.DEFAULT); // closes it
        tail.release();
        e.close(); // the stream's end path may close it again
        assertThat(ZlibMemory.used()).isEqualTo(before);
        Encoder.of(Algo.IDENTITY, 1).close();
        assertThat(ZlibMemory.used()).as("identity has no zlib stream").isEqualTo(before);
    }

    @Test
    void theLimitRefusesTheStreamThatWouldGoAbove() {
        long before = ZlibMemory.used();
        ZlibMemory.limit(before + 2 * ZlibMemory.PER_STREAM);
        Encoder a = Encoder.of(Algo.DEFLATE, 1);
        assertThat(ZlibMemory.full()).isFalse();
        Encoder b = Encoder.of(Algo.RAW_DEFLATE, 1);
        assertThat(ZlibMemory.full()).isTrue();
        a.close();
        assertThat(ZlibMemory.full()).isFalse();
        b.close();
        ZlibMemory.limit(-5L << 20);
        assertThat(ZlibMemory.full()).as("a negative limit is none").isFalse();
    }
}
