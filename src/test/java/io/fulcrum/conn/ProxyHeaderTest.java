package io.fulcrum.conn;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks our headers against an independent reader: Netty's PROXY protocol decoder. */
class ProxyHeaderTest {

    private static final InetSocketAddress SRC4 = new InetSocketAddress("192.0.2.1", 40000);
    private static final InetSocketAddress DST4 = new InetSocketAddress("198.51.100.7", 443);
    private static final InetSocketAddress SRC6 = new InetSocketAddress("2001:db8::1", 40001);

    @Test
    void v1IsTheDocumentedTextLine() {
        ByteBuf b = ProxyHeader.encode(1, SRC4, DST4, ByteBufAllocator.DEFAULT);
        try {
            assertThat(b.toString(StandardCharsets.US_ASCII)).isEqualTo("PROXY TCP4 192.0.2.1 198.51.100.7 40000 443\r\n");
        } finally {
            b.release();
        }
    }

    @Test
    void v1AndV2DecodeToTheSameAddresses() {
        for (int version : new int[] {1, 2}) {
            HAProxyMessage m = decode(ProxyHeader.encode(version, SRC4, DST4, ByteBufAllocator.DEFAULT));
            try {
                assertThat(m.protocolVersion()).isEqualTo(version == 1 ? HAProxyProtocolVersion.V1 : HAProxyProtocolVersion.V2);
                assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
                assertThat(m.sourceAddress()).isEqualTo("192.0.2.1");
                assertThat(m.destinationAddress()).isEqualTo("198.51.100.7");
                assertThat(m.sourcePort()).isEqualTo(40000);
                assertThat(m.destinationPort()).isEqualTo(443);
            } finally {
                m.release();
            }
        }
    }

    @Test
    void mixedFamiliesAreSentAsIpv6WithAMappedAddress() {
        HAProxyMessage m = decode(ProxyHeader.encode(2, SRC6, DST4, ByteBufAllocator.DEFAULT));
        try {
            assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP6);
            assertThat(m.sourceAddress()).isEqualTo("2001:db8:0:0:0:0:0:1");
            assertThat(m.destinationAddress()).isEqualTo("0:0:0:0:0:ffff:c633:6407");
        } finally {
            m.release();
        }
    }

    @Test
    void nonIpAddressesAreUnknownOrLocal() {
        InetSocketAddress none = null;
        ByteBuf v1 = ProxyHeader.encode(1, none, none, ByteBufAllocator.DEFAULT);
        try {
            assertThat(v1.toString(StandardCharsets.US_ASCII)).isEqualTo("PROXY UNKNOWN\r\n");
        } finally {
            v1.release();
        }
        HAProxyMessage m = decode(ProxyHeader.encode(2, none, none, ByteBufAllocator.DEFAULT));
        try {
            assertThat(m.command().name()).isEqualTo("LOCAL");
        } finally {
            m.release();
        }
    }

    private static HAProxyMessage decode(ByteBuf header) {
        EmbeddedChannel ch = new EmbeddedChannel(new HAProxyMessageDecoder());
        ch.writeInbound(header);
        HAProxyMessage m = ch.readInbound();
        ch.finishAndReleaseAll();
        return m;
    }
}
