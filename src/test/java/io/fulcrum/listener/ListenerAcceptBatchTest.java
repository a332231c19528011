package io.fulcrum.listener;

import io.fulcrum.cfg.Source;
import io.fulcrum.conn.Endpoint;
import io.fulcrum.runtime.ConnLimit;
import io.fulcrum.runtime.EventLoops;
import io.netty.channel.Channel;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code tune.maxaccept}: the listening socket accepts that many connections per wake-up (Netty's messages per read). */
class ListenerAcceptBatchTest {

    @Test
    void haproxysValuesMapToConnectionsPerWakeUp() {
        assertThat(Listener.acceptBatch(4)).isEqualTo(4);
        assertThat(Listener.acceptBatch(0)).as("HAProxy's listeners without a value: one").isEqualTo(1);
        assertThat(Listener.acceptBatch(-1)).as("no limit").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void theListeningSocketReadsThatManyConnectionsPerWakeUp() throws Exception {
        EventLoops loops = new EventLoops(1, false, EventLoops.Placement.anywhere(), EventLoops.Poller.DEFAULT);
        try {
            BindSpec bind = new BindSpec(new Source("t.cfg", 1), "127.0.0.1:0",
                    List.of(new Endpoint.Inet(InetAddress.getLoopbackAddress(), 0, Endpoint.Family.IPV4)));
            bind.number(1);
            bind.maxaccept = 7;
            Listener l = new Listener(bind, bind.endpoints().getFirst(), "fe", "frontend", new ConnLimit(0), loops, new ConnLimit(0), Channel::close);
            Channel ch = l.bind().getFirst().sync().channel();
            MaxMessagesRecvByteBufAllocator a = ch.config().getRecvByteBufAllocator();
            assertThat(a.maxMessagesPerRead()).isEqualTo(7);
            l.close();
        } finally {
            loops.shutdown();
        }
    }
}
