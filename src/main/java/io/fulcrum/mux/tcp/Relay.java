package io.fulcrum.mux.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;

/**
 * Moves bytes read on one side of a TCP session to the other side, as they come: no copy, no
 * reassembly. Back-pressure: when the other side cannot take more (its outbound buffer is above the
 * high-water mark), this side stops reading until it drains.
 */
final class Relay extends ChannelInboundHandlerAdapter {
    private final TcpSession session;
    private final Side side;
    private Channel peer;

    Relay(TcpSession session, Side side) {
        this.session = session;
        this.side = side;
    }

    /** The channel bytes go to; set once the server connection is established. */
    void peer(Channel peer) {
        this.peer = peer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        if (peer == null || session.holding(side)) {
            // Read before the server connection is up (the epoll transport reads on a peer's FIN (EPOLLRDHUP) even
            // with auto-read off), or while content rules inspect them: the session keeps them.
            session.hold(side, buf);
            return;
        }
        session.read(side, buf.readableBytes());
        peer.write(buf, peer.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (peer != null) {
            peer.flush();
            if (!peer.isWritable()) {
                ctx.channel().config().setAutoRead(false);
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            session.blocked(side);
        } else if (peer != null) {
            session.drained(side);
            peer.config().setAutoRead(true);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            session.inputShut(side);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        session.closed(side);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset or a write error: this side is gone; channelInactive tells the session.
        session.failed(side);
        ctx.close();
    }
}
