package io.fulcrum.runtime;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** show fd's per-socket event counter: the handle the loops register in place of each epoll socket's own. */
class CountingEpollHandleTest {

    /** What the wrapped handle was asked to do, in order. */
    private static final class Recording implements EpollIoHandle {
        final List<Object> calls = new ArrayList<>();
        final FileDescriptor fd = new FileDescriptor(42);

        @Override
        public FileDescriptor fd() {
            return fd;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            calls.add(event);
        }

        @Override
        public void registered() {
            calls.add("registered");
        }

        @Override
        public void unregistered() {
            calls.add("unregistered");
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    @Test
    void eachEventIsCountedAndHandedOn() throws Exception {
        Recording inner = new Recording();
        CountingEpollHandle h = new CountingEpollHandle(inner);
        IoEvent first = new IoEvent() { };
        IoEvent second = new IoEvent() { };
        h.registered();
        assertThat(h.events()).isZero();
        h.handle(null, first);
        h.handle(null, second);
        h.handle(null, first);
        h.unregistered();
        h.close();
        assertThat(h.events()).isEqualTo(3);
        assertThat(inner.calls).containsExactly("registered", first, second, first, "unregistered", "close");
        assertThat(h.fd()).isSameAs(inner.fd);
    }

    /**
     * Through a real loop: Netty's epoll handler registers the wrapper and calls it for each event; a connection that
     * exchanged N messages one at a time was handed at least N events, and its count grows with the next ones.
     */
    @Test
    void aLoopCountsTheEventsOfEachSocket() throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll");
        EventLoops loops = new EventLoops(1, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
        try {
            Channel server = new ServerBootstrap().group(loops.group()).channel(EpollServerSocketChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ctx.writeAndFlush(msg); // echo
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            ActivityIoHandler handler = loops.activities().getFirst().handler;
            try (Socket client = new Socket()) {
                client.connect((InetSocketAddress) server.localAddress());
                exchange(client, 5);
                long after5 = accepted(loops, handler);
                assertThat(after5).isGreaterThanOrEqualTo(5);
                exchange(client, 10);
                assertThat(accepted(loops, handler)).isGreaterThanOrEqualTo(after5 + 10);
                long listener = loops.next().submit(() -> {
                    long[] n = {-1};
                    handler.eachChannel((ch, events) -> n[0] = ch == server ? events : n[0]);
                    return n[0];
                }).get(5, TimeUnit.SECONDS);
                assertThat(listener).as("the listening socket's accept events").isPositive();
            }
            server.close().sync();
        } finally {
            loops.shutdown();
        }
    }

    /** Sends {@code n} bytes one at a time, each after the echo of the previous one. */
    private static void exchange(Socket client, int n) throws Exception {
        OutputStream out = client.getOutputStream();
        InputStream in = client.getInputStream();
        for (int i = 0; i < n; i++) {
            out.write('x');
            out.flush();
            assertThat(in.read()).isEqualTo('x');
        }
    }

    /** The event count of the loop's one accepted connection, read on the loop. */
    private static long accepted(EventLoops loops, ActivityIoHandler handler) throws Exception {
        return loops.next().submit(() -> {
            long[] n = {-1};
            handler.eachChannel((ch, events) -> n[0] = ch.parent() != null ? events : n[0]);
            return n[0];
        }).get(5, TimeUnit.SECONDS);
    }
}
