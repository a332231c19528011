package io.fulcrum.conn;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The NetScaler Client IP header, legacy and standard, IPv4 and IPv6, whole, partial and wrong. */
class NetScalerCipTest {
    private static final int MAGIC = 0x12345678;

    /** An IPv4 header (20 bytes, TCP) and the ports of a TCP header, from 192.0.2.1:40000 to 198.51.100.7:443. */
    static byte[] ipv4(int protocol) {
        byte[] h = new byte[24];
        h[0] = 0x45;
        h[9] = (byte) protocol;
        h[12] = (byte) 192; h[13] = 0; h[14] = 2; h[15] = 1;
        h[16] = (byte) 198; h[17] = 51; h[18] = 100; h[19] = 7;
        h[20] = (byte) (40000 >> 8); h[21] = (byte) 40000;
        h[22] = 1; h[23] = (byte) 0xbb;
        return h;
    }

    static ByteBuf legacy(int magic, byte[] ip) {
        return Unpooled.buffer().writeInt(magic).writeInt(ip.length).writeBytes(ip);
    }

    static ByteBuf standard(int magic, byte[] ip) {
        return Unpooled.buffer().writeInt(magic).writeInt(12 + ip.length).writeShort(0).writeShort(ip.length).writeBytes(ip);
    }

    @Test
    void legacyIpv4HeaderGivesTheOriginalAddresses() throws Exception {
        ByteBuf in = legacy(MAGIC, ipv4(6)).writeBytes("GET".getBytes());
        NetScalerCip.Header h = NetScalerCip.parse(in, MAGIC);
        assertThat(h.source()).isEqualTo(new InetSocketAddress("192.0.2.1", 40000));
        assertThat(h.destination()).isEqualTo(new InetSocketAddress("198.51.100.7", 443));
        assertThat(in.readableBytes()).as("the data after the header stays").isEqualTo(3);
    }

    @Test
    void standardIpv4Header() throws Exception {
        ByteBuf in = standard(MAGIC, ipv4(6));
        assertThat(NetScalerCip.parse(in, MAGIC).source()).isEqualTo(new InetSocketAddress("192.0.2.1", 40000));
        assertThat(in.isReadable()).isFalse();
    }

    @Test
    void ipv6Header() throws Exception {
        byte[] ip = new byte[44];
        ip[0] = 0x60;
        ip[6] = 6;
        ip[8] = 0x20; ip[9] = 0x01; ip[10] = 0x0d; ip[11] = (byte) 0xb8; ip[23] = 1;
        ip[24] = 0x20; ip[25] = 0x01; ip[26] = 0x0d; ip[27] = (byte) 0xb8; ip[39] = 2;
        ip[40] = 0; ip[41] = 80; ip[42] = 0; ip[43] = 81;
        NetScalerCip.Header h = NetScalerCip.parse(standard(MAGIC, ip), MAGIC);
        assertThat(h.source()).isEqualTo(new InetSocketAddress("2001:db8::1", 80));
        assertThat(h.destination()).isEqualTo(new InetSocketAddress("2001:db8::2", 81));
    }

    @Test
    void aPartialHeaderWaitsForMore() throws Exception {
        ByteBuf whole = legacy(MAGIC, ipv4(6));
        for (int n = 0; n < whole.readableBytes(); n++) {
            ByteBuf part = whole.slice(0, n);
            assertThat(NetScalerCip.parse(part, MAGIC)).as("%d bytes", n).isNull();
            assertThat(part.readerIndex()).isZero();
        }
    }

    @Test
    void wrongMagicOrProtocolIsRefused() {
        assertThatThrownBy(() -> NetScalerCip.parse(legacy(MAGIC + 1, ipv4(6)), MAGIC))
                .isInstanceOfSatisfying(NetScalerCip.Invalid.class, e -> assertThat(e.reason()).isEqualTo(ConnError.CIP_BAD_MAGIC));
        assertThatThrownBy(() -> NetScalerCip.parse(legacy(MAGIC, ipv4(17)), MAGIC))
                .isInstanceOfSatisfying(NetScalerCip.Invalid.class, e -> assertThat(e.reason()).isEqualTo(ConnError.CIP_BAD_PROTO));
        ByteBuf unknownKind = Unpooled.buffer().writeInt(MAGIC).writeInt(0).writeByte(0x11).writeZero(40);
        assertThatThrownBy(() -> NetScalerCip.parse(unknownKind, MAGIC))
                .isInstanceOfSatisfying(NetScalerCip.Invalid.class, e -> assertThat(e.reason()).isEqualTo(ConnError.CIP_BAD_PROTO));
    }
}
