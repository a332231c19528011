package io.fulcrum.server;

import io.fulcrum.conn.SocketTuning;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/** A server's {@code tcp-ut} and {@code tfo}, and a bind line's {@code mss} and {@code tcp-ut}, read back with getsockopt. */
class ServerSocketsTest {
    private static final int TCP_MAXSEG = 2;
    private static final int TCP_USER_TIMEOUT = 18;
    private static final int TCP_FASTOPEN_CONNECT = 30;

    @Test
    void serverOptionsReachTheSocket() throws Exception {
        assumeThat(Epoll.isAvailable()).isTrue();
        ServerSpec spec = new ServerSpec();
        spec.tcpUserTimeout = 3000;
        spec.tfo = true;
        EpollSocketChannel ch = new EpollSocketChannel();
        try {
            ServerSockets.apply(ch, spec);
            assertThat(SocketTuning.tcpOption(ch, TCP_USER_TIMEOUT)).isEqualTo(3000);
            assertThat(SocketTuning.tcpOption(ch, TCP_FASTOPEN_CONNECT)).isEqualTo(1);
        } finally {
            ch.unsafe().closeForcibly();
        }
    }

    @Test
    void withoutOptionsTheSystemsDefaultsStay() throws Exception {
        assumeThat(Epoll.isAvailable()).isTrue();
        EpollSocketChannel ch = new EpollSocketChannel();
        try {
            ServerSockets.apply(ch, new ServerSpec());
            assertThat(SocketTuning.tcpOption(ch, TCP_USER_TIMEOUT)).isZero();
            assertThat(SocketTuning.tcpOption(ch, TCP_FASTOPEN_CONNECT)).isZero();
        } finally {
            ch.unsafe().closeForcibly();
        }
    }

    @Test
    void listeningSocketTakesMssAndUserTimeout() throws Exception {
        assumeThat(Epoll.isAvailable()).isTrue();
        EpollServerSocketChannel ch = new EpollServerSocketChannel();
        try {
            SocketTuning.maxSegment(ch, 1200);
            SocketTuning.userTimeout(ch, 5000);
            assertThat(SocketTuning.tcpOption(ch, TCP_MAXSEG)).isEqualTo(1200);
            assertThat(SocketTuning.tcpOption(ch, TCP_USER_TIMEOUT)).isEqualTo(5000);
            SocketTuning.maxSegment(ch, -200);
            assertThat(SocketTuning.tcpOption(ch, TCP_MAXSEG)).as("a negative mss lowers the current one").isEqualTo(1000);
        } finally {
            ch.unsafe().closeForcibly();
        }
    }
}
