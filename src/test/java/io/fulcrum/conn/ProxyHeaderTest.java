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

    private static final int ALL_TLVS = 0xff;

    /** The bytes HAProxy 2.6 sent for a plain HTTP request ("proxy-v2-options" with every option, unique-id-format abc%[int(42)]). */
    @Test
    void tlvsWithoutTlsAreHaproxysBytes() throws Exception {
        assertThat(hex(ProxyHeader.encode(2, ProxyHeader.options("ssl,cert-cn,ssl-cipher,cert-sig,cert-key,authority,crc32c,unique-id"),
                new InetSocketAddress("127.0.0.1", 0xa044), new InetSocketAddress("127.0.0.1", 23522), null, "abc42", ByteBufAllocator.DEFAULT)))
                .isEqualTo("0d0a0d0a000d0a515549540a211100237f0000017f000001a0445be20300044bf7093205000561626334322000050000000000");
    }

    /** Over TLS with a client certificate: HAProxy 2.6's bytes (SNI "sni.example", the client's CN, the bind certificate's RSA key). */
    @Test
    void tlvsOverTlsAreHaproxysBytes() {
        TlsInfo tls = new TlsInfo() {
            public String protocol() { return "TLSv1.3"; }
            public String cipher() { return "TLS_AES_256_GCM_SHA384"; }
            public String sni() { return "sni.example"; }
            public boolean hasPeerCertificate() { return true; }
            public int verifyResult() { return 0; }
            public String peerCommonName() { return "client.test"; }
            public String localKeyAlgorithm() { return "RSA2048"; }
            public String localSignatureAlgorithm() { return "RSA-SHA256"; }
        };
        assertThat(hex(ProxyHeader.encode(2, ALL_TLVS, new InetSocketAddress("127.0.0.1", 0xc750), new InetSocketAddress("127.0.0.1", 23520),
                tls, "abc42", ByteBufAllocator.DEFAULT))).isEqualTo("0d0a0d0a000d0a515549540a211100797f0000017f000001c7505be0"
                + "030004fe004c0202000b736e692e6578616d706c65050005616263343220004d0700000000210007544c5376312e3322000b636c69656e742e74657374"
                + "2500075253413230343824000a5253412d534841323536230016544c535f4145535f3235365f47434d5f534841333834");
    }

    @Test
    void unknownOptionIsHaproxysMessage() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ProxyHeader.options("ssl,foo")))
                .hasMessage("'foo' : proxy v2 option not implemented.");
    }

    private static String hex(ByteBuf b) {
        try {
            return io.netty.buffer.ByteBufUtil.hexDump(b);
        } finally {
            b.release();
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
