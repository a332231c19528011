package io.fulcrum.listener;

import io.fulcrum.cfg.Source;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.conn.SocketTuning;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * {@code option tcp-smart-accept}: TCP_QUICKACK is turned off once, on the listening socket (as HAProxy does), and the
 * connections it accepts start in that state without a system call of their own.
 */
class ListenerDelayedAckTest {
    private static final int TCP_QUICKACK = 12;

    @Test
    void acceptedConnectionsInheritTheListenersDelayedAck() throws Exception {
        assumeThat(Epoll.isAvailable()).isTrue();
        assertThat(quickAckOfAccepted(true)).as("smart accept").isZero();
        assertThat(quickAckOfAccepted(false)).as("the system's default").isEqualTo(1);
    }

    /** TCP_QUICKACK as read on a connection accepted by a listener with or without delayed acknowledgements. */
    private static int quickAckOfAccepted(boolean delayed) throws Exception {
        EventLoops loops = new EventLoops(1, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
        try {
            BindSpec bind = new BindSpec(new Source("t.cfg", 1), "127.0.0.1:0",
                    List.of(new Endpoint.Inet(InetAddress.getLoopbackAddress(), 0, Endpoint.Family.IPV4)));
            bind.number(1);
            CompletableFuture<Integer> option = new CompletableFuture<>();
            Listener l = new Listener(bind, bind.endpoints().getFirst(), "fe", "frontend", new ConnLimit(0), loops, new ConnLimit(0), child -> {
                try {
                    option.complete(SocketTuning.tcpOption(child, TCP_QUICKACK));
                } catch (Exception e) {
                    option.completeExceptionally(e);
                }
                child.close();
            });
            if (delayed) {
                l.delayedAck();
            }
            Channel ch = l.bind().getFirst().sync().channel();
            try (Socket client = new Socket()) {
                client.connect(ch.localAddress(), 5000);
                return option.get(10, TimeUnit.SECONDS);
            } finally {
                l.close();
            }
        } finally {
            loops.shutdown();
        }
    }
}
