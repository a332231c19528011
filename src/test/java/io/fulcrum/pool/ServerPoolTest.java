package io.fulcrum.pool;

import io.fulcrum.conn.Endpoint;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketProtocolFamily;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Takeovers between real event loops (three), on connections to a listening socket that never answers: which loop
 * a takeover asks first, and what the asking loop does when the loop asked has none left by then.
 */
class ServerPoolTest {
    private EventLoops loops;
    private List<EventLoop> loop;
    private ServerSocket origin;
    private Server server;

    @BeforeEach
    void start() throws Exception {
        loops = new EventLoops(3, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
        loop = loops.all();
        for (EventLoop l : loop) {
            on(l, ServerPool::current); // each loop's pool is known to the others from its first use
        }
        origin = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ServerSpec s = new ServerSpec();
        s.name = "s1";
        s.endpoint = new Endpoint.Inet(InetAddress.getLoopbackAddress(), origin.getLocalPort(), Endpoint.Family.ANY);
        s.part(PoolSettings.class, PoolSettings::new);
        server = new Server("be", s, 1);
    }

    @AfterEach
    void stop() throws Exception {
        loops.group().shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).await(5, TimeUnit.SECONDS); // (its connections first)
        origin.close();
    }

    private static <T> T on(EventLoop l, Callable<T> task) throws Exception {
        return l.submit(task).get(5, TimeUnit.SECONDS);
    }

    /** A connection of loop {@code i} to the origin, idle in that loop's pool ({@code safe}: it carried two requests). */
    private Channel idleIn(int i, boolean safe) throws Exception {
        Channel ch = new Bootstrap().group(loop.get(i))
                .channelFactory(() -> loops.newSocket(SocketProtocolFamily.INET))
                .handler(new ChannelInboundHandlerAdapter())
                .connect(origin.getLocalSocketAddress()).sync().channel();
        assertThat(on(loop.get(i), () -> ServerPool.current().release(server, ch, safe))).isTrue();
        return ch;
    }

    /**
     * Loop {@code asker} asks for a connection ({@code pick}, a first request's under always or a later one's) while
     * loop 0 is held; loop 0 then first serves a request of its own, which takes {@code x} (the one asked for),
     * then hears the asker. What the asker got in the end (null: none, it opens one).
     */
    private Channel takenOverOnceLoop0Took(Channel x, int asker, Pick pick) throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        loop.get(0).execute(() -> {
            try {
                hold.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<Channel> own = new CompletableFuture<>();
        loop.get(0).execute(() -> own.complete(ServerPool.current().acquire(server, pick, null)));
        CompletableFuture<Channel> taken = new CompletableFuture<>();
        assertThat(on(loop.get(asker), () -> ServerPool.current().takeOver(server, pick, null, taken::complete))).isTrue();
        hold.countDown();
        assertThat(own.get(5, TimeUnit.SECONDS)).isSameAs(x);
        return taken.get(5, TimeUnit.SECONDS);
    }

    /**
     * X is safe in loop 0, Y idle (one request) in loop 1. A first request under always on loop 2 asks loop 0 for
     * its safe connection, but a request of loop 0's own takes X first: loop 2 does not open a connection, it looks
     * on (HAProxy's lookup, from safe connections to idle ones, in the next threads) and takes Y over from loop 1.
     */
    @Test
    void aLoopAskedWithNoneLeftSendsTheAskerOn() throws Exception {
        Channel x = idleIn(0, true);
        Channel y = idleIn(1, false);
        Channel got = takenOverOnceLoop0Took(x, 2, Pick.SAFE_FIRST);
        assertThat(got).isSameAs(y);
        assertThat(got.eventLoop()).isSameAs(loop.get(2));
        ServerIdle counts = ServerIdle.of(server);
        assertThat(counts.idleCount()).isZero();
        assertThat(counts.nextTakeover()).as("Y was last found in loop 1").isEqualTo(2);
    }

    /**
     * The next takeover starts at the loop after the one a connection was last found in, whichever loop found it
     * (each dates its finds in its own cell): none found yet, loop 0; then after each find.
     */
    @Test
    void theNextTakeoverStartsAfterTheLastFind() throws Exception {
        ServerIdle counts = ServerIdle.of(server);
        assertThat(counts.nextTakeover()).isZero();
        for (int i : new int[] {1, 0, 2, 1}) {
            on(loop.get(i), () -> {
                ServerIdle.foundIn(counts.cells.mine());
                return null;
            });
            assertThat(counts.nextTakeover()).isEqualTo(i + 1);
        }
    }

    /** When every loop asked has none left, the asker gets none (it opens a connection): no loop is asked forever. */
    @Test
    void aTakeoverEndsWhenNoLoopHasOneLeft() throws Exception {
        Channel x = idleIn(0, true);
        assertThat(takenOverOnceLoop0Took(x, 1, Pick.ANY)).isNull();
    }
}
