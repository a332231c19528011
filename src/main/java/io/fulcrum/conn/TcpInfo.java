package io.fulcrum.conn;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollTcpInfo;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.channel.uring.IoUringTcpInfo;

/** The fields of the kernel's TCP_INFO that the {@code fc_*} fetches return (times in microseconds). */
record TcpInfo(long rtt, long rttvar, long unacked, long sacked, long retrans, long fackets, long lost, long reordering) {
    /** The TCP_INFO of a native TCP connection, or null (NIO, unix socket, closed). */
    static TcpInfo of(Channel ch) {
        try {
            if (ch instanceof EpollSocketChannel tcp && tcp.isOpen()) {
                EpollTcpInfo i = tcp.tcpInfo();
                return new TcpInfo(i.rtt(), i.rttvar(), i.unacked(), i.sacked(), i.retrans(), i.fackets(), i.lost(), i.reordering());
            }
            if (ch instanceof IoUringSocketChannel tcp && tcp.isOpen()) {
                IoUringTcpInfo i = tcp.tcpInfo();
                return new TcpInfo(i.rtt(), i.rttvar(), i.unacked(), i.sacked(), i.retrans(), i.fackets(), i.lost(), i.reordering());
            }
        } catch (RuntimeException e) {
            return null; // closed meanwhile
        }
        return null;
    }
}
