package io.fulcrum.peers;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The peers protocol's encoded integers, at the bounds peers-v2.0.txt gives for each length. */
class VarIntTest {

    private static String hex(long v) {
        ByteBuf b = Unpooled.buffer();
        try {
            VarInt.write(b, v);
            assertThat(VarInt.size(v)).isEqualTo(b.readableBytes());
            return ByteBufUtil.hexDump(b);
        } finally {
            b.release();
        }
    }

    private static long read(String hex) throws VarInt.Malformed {
        ByteBuf b = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex));
        try {
            assertThat(VarInt.complete(b)).isTrue();
            long v = VarInt.read(b);
            assertThat(b.isReadable()).isFalse();
            return v;
        } finally {
            b.release();
        }
    }

    @Test
    void boundsOfEachLength() throws Exception {
        assertThat(hex(0)).isEqualTo("00");
        assertThat(hex(239)).isEqualTo("ef");
        assertThat(hex(240)).isEqualTo("f000");
        assertThat(hex(2287)).isEqualTo("ff7f");
        assertThat(hex(2288)).hasSize(6);
        assertThat(hex(264431)).hasSize(6);
        assertThat(hex(264432)).hasSize(8);
        assertThat(hex(33818863)).hasSize(8);
        assertThat(hex(33818864)).hasSize(10);
        assertThat(hex(4328786159L)).hasSize(10);
        assertThat(hex(4328786160L)).hasSize(12);
        assertThat(hex(-1L)).hasSize(20); // a negative int sign-extended, as HAProxy encodes one
        assertThat(read("ff7f")).isEqualTo(2287);
        assertThat(read(hex(-1L))).isEqualTo(-1L);
    }

    @Test
    void valuesHaproxySent() throws Exception {
        assertThat(read("f0971c")).isEqualTo(60000); // a table's expiry
        assertThat(read("f0e203")).isEqualTo(10000); // a rate's period
        assertThat(read("f091ff5e")).isEqualTo((1L << 9) | (1L << 23) | (1L << 24)); // http_req_cnt, gpc, gpc_rate
        assertThat(read("f355")).isEqualTo(0x643); // server_id, gpt0, conn_cur, http_req_cnt, http_req_rate
    }

    @Test
    void truncatedIsMalformed() {
        ByteBuf b = Unpooled.wrappedBuffer(new byte[] {(byte) 0xf0, (byte) 0x80});
        try {
            assertThat(VarInt.complete(b)).isFalse();
            assertThatThrownBy(() -> VarInt.read(b)).isInstanceOf(VarInt.Malformed.class);
        } finally {
            b.release();
        }
    }

    @Property
    void roundTrip(@ForAll long v) throws Exception {
        assertThat(read(hex(v))).isEqualTo(v);
    }
}
