package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.List;

/**
 * Linux's TCP options as a socket's native transport names them: epoll's and io_uring's are distinct constants of
 * the same options, and a channel takes only its own transport's.
 *
 * @param keepAliveTuning TCP_KEEPCNT, TCP_KEEPIDLE and TCP_KEEPINTVL, in that order
 */
public record NativeOptions(ChannelOption<Boolean> quickAck, ChannelOption<Integer> deferAccept,
                            ChannelOption<Integer> fastOpen, List<ChannelOption<Integer>> keepAliveTuning) {
    private static final NativeOptions EPOLL = new NativeOptions(EpollChannelOption.TCP_QUICKACK,
            EpollChannelOption.TCP_DEFER_ACCEPT, EpollChannelOption.TCP_FASTOPEN,
            List.of(EpollChannelOption.TCP_KEEPCNT, EpollChannelOption.TCP_KEEPIDLE, EpollChannelOption.TCP_KEEPINTVL));
    private static final NativeOptions IO_URING = new NativeOptions(IoUringChannelOption.TCP_QUICKACK,
            IoUringChannelOption.TCP_DEFER_ACCEPT, IoUringChannelOption.TCP_FASTOPEN,
            List.of(IoUringChannelOption.TCP_KEEPCNT, IoUringChannelOption.TCP_KEEPIDLE, IoUringChannelOption.TCP_KEEPINTVL));

    /** The options of a TCP socket {@code ch} (connection or listener), null when it is not a native one (NIO). */
    public static NativeOptions of(Channel ch) {
        if (ch instanceof EpollSocketChannel || ch instanceof EpollServerSocketChannel) {
            return EPOLL;
        }
        if (ch instanceof IoUringSocketChannel || ch instanceof IoUringServerSocketChannel) {
            return IO_URING;
        }
        return null;
    }

    /** Sets TCP_QUICKACK on a native TCP socket; nothing on any other. */
    public static void quickAck(Channel ch, boolean on) {
        NativeOptions o = of(ch);
        if (o != null) {
            ch.config().setOption(o.quickAck, on);
        }
    }
}
