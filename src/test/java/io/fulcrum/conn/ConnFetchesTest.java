package io.fulcrum.conn;

import io.fulcrum.sample.TestContext;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The layer-4 fetches; types and values as HAProxy 2.6 gives them for the same connections. */
class ConnFetchesTest {

    @Test
    void clientAddresses() {
        TestContext ctx = new TestContext();
        ctx.source = new InetSocketAddress("10.1.2.3", 40724);
        ctx.destination = new InetSocketAddress("2001:db8::1", 443);
        assertThat(ctx.eval("src")).isEqualTo("ipv4:10.1.2.3");
        assertThat(ctx.eval("src_port")).isEqualTo("sint:40724");
        assertThat(ctx.eval("fc_src")).isEqualTo("ipv4:10.1.2.3");
        assertThat(ctx.eval("fc_src_port")).isEqualTo("sint:40724");
        assertThat(ctx.eval("dst")).isEqualTo("ipv6:2001:db8::1");
        assertThat(ctx.eval("dst_port")).isEqualTo("sint:443");
        assertThat(ctx.eval("fc_dst_port")).isEqualTo("sint:443");
        assertThat(ctx.eval("fc_http_major")).isEqualTo("none"); // no HTTP request: mode tcp
        ctx.request = new RequestHead(AsciiString.of("GET"), AsciiString.of("/"), 11, new HttpHeaders());
        assertThat(ctx.eval("fc_http_major")).isEqualTo("sint:1");
        assertThat(ctx.eval("fc_rcvd_proxy")).isEqualTo("bool:0");
    }

    @Test
    void unixSocketsHaveNoAddressButAreLocal() {
        TestContext ctx = new TestContext();
        ctx.source = new DomainSocketAddress("/tmp/x.sock");
        assertThat(ctx.eval("src")).isEqualTo("none");
        assertThat(ctx.eval("src_port")).isEqualTo("none");
        assertThat(ctx.eval("src_is_local")).isEqualTo("bool:1");
        assertThat(ctx.eval("dst_is_local")).as("no address at all").isEqualTo("none");
    }

    @Test
    void localAddressesAreThoseASocketCanBindTo() throws Exception {
        TestContext ctx = new TestContext();
        ctx.source = new InetSocketAddress("127.0.0.1", 1000);
        ctx.destination = new InetSocketAddress("127.0.0.2", 1000);
        assertThat(ctx.eval("src_is_local")).isEqualTo("bool:1");
        assertThat(ctx.eval("fc_dst_is_local")).as("all of 127/8 is local").isEqualTo("bool:1");
        ctx.destination = new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 80); // TEST-NET-1
        assertThat(ctx.eval("dst_is_local")).isEqualTo("bool:0");
    }

    @Test
    void theKernelsMeasuresNeedANativeTcpConnection() throws Exception {
        TestContext ctx = new TestContext();
        ctx.frontChannel = new EmbeddedChannel();
        assertThat(ctx.eval("fc_rtt")).isEqualTo("none");
        assertThat(ctx.eval("fc_lost")).isEqualTo("none");
        assumeTrue(Epoll.isAvailable());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Channel ch = new Bootstrap().group(group).channel(EpollSocketChannel.class).handler(new ChannelInboundHandlerAdapter())
                    .connect(server.getLocalSocketAddress()).sync().channel();
            try (Socket accepted = server.accept()) {
                ctx.frontChannel = ch;
                ctx.backChannel = ch;
                assertThat(Long.parseLong(ctx.text("fc_rtt(us)"))).isGreaterThanOrEqualTo(0);
                assertThat(Long.parseLong(ctx.text("fc_rtt"))).isGreaterThanOrEqualTo(0);
                assertThat(ctx.text("fc_rttvar(us)")).isNotEqualTo("none");
                assertThat(ctx.eval("fc_lost(ms)")).isEqualTo("sint:0");
                assertThat(ctx.eval("fc_unacked")).isEqualTo("sint:0");
                assertThat(ctx.text("fc_reordering")).isNotEqualTo("none");
                // The server connection's addresses: from where to where Fulcrum connected.
                assertThat(ctx.eval("bc_dst")).isEqualTo("ipv4:127.0.0.1");
                assertThat(ctx.text("bc_dst_port")).isEqualTo(String.valueOf(server.getLocalPort()));
                assertThat(ctx.text("bc_src_port")).isEqualTo(String.valueOf(accepted.getPort()));
                assertThat(ctx.eval("bc_http_major")).isEqualTo("none"); // mode tcp
                ctx.request = new RequestHead(AsciiString.of("GET"), AsciiString.of("/"), 11, new HttpHeaders());
                assertThat(ctx.eval("bc_http_major")).isEqualTo("sint:1");
                ch.close().sync();
            }
        } finally {
            group.shutdownGracefully().sync();
        }
    }

    @Test
    void timeUnits() {
        assertThat(TestContext.error("fc_rtt(MS)")).isEqualTo("invalid args in fetch method 'fc_rtt' : expects 'us' or 'ms', got 'MS'");
        assertThat(TestContext.error("fc_rttvar()")).isEqualTo("invalid args in fetch method 'fc_rttvar' : expects 'us' or 'ms', got ''");
        assertThat(TestContext.error("fc_lost(xx)")).as("counters ignore it").isNull();
    }
}
