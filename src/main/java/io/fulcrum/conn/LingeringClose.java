package io.fulcrum.conn;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.TimeUnit;

/**
 * Closes a client connection that a rule refused as HAProxy closes it: with a FIN, then what the client still sends is
 * read and dropped until it closes too, for at most a second. Closed at once with bytes still unread, the socket would
 * send a reset instead, which the client may see before it read the end of the connection.
 */
public final class LingeringClose extends ChannelInboundHandlerAdapter {
    private static final long MAX_MILLIS = 1000;

    private LingeringClose() {
    }

    public static void close(Channel ch) {
        if (!ch.isActive() || !(ch instanceof DuplexChannel duplex)) {
            ch.close();
            return;
        }
        ch.pipeline().addFirst(new LingeringClose()); // (ahead of any TLS layer: the bytes are dropped as they come)
        ch.config().setAutoRead(true);
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
            if (ch.isActive()) {
                duplex.shutdownOutput();
            }
        });
        ch.eventLoop().schedule(() -> ch.close(), MAX_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
