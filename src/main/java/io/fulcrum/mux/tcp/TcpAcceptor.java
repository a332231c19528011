package io.fulcrum.mux.tcp;

import io.fulcrum.conn.SocketOptions;
import io.fulcrum.listener.BindSpec;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.runtime.EventLoops;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Sets up each accepted connection of a {@code mode tcp} frontend: socket options, an event loop, the
 * PROXY header when the bind line has {@code accept-proxy}, then a {@link TcpSession}.
 */
public final class TcpAcceptor implements Consumer<Channel> {
    private final Frontend frontend;
    private final BindSpec bind;
    private final EventLoops loops;

    public TcpAcceptor(Frontend frontend, BindSpec bind, EventLoops loops) {
        this.frontend = frontend;
        this.bind = bind;
        this.loops = loops;
    }

    @Override
    public void accept(Channel child) {
        SocketOptions opts = frontend.socketOptions();
        child.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        if (child.config().getOptions().containsKey(ChannelOption.TCP_NODELAY)) {
            child.config().setOption(ChannelOption.TCP_NODELAY, true);
            child.config().setOption(ChannelOption.SO_KEEPALIVE, opts.clientKeepAlive);
            if (opts.nolinger) {
                child.config().setOption(ChannelOption.SO_LINGER, 0);
            }
        }
        child.config().setAutoRead(bind.acceptProxy);
        if (bind.acceptProxy) {
            child.pipeline().addLast("proxy-decoder", new HAProxyMessageDecoder());
            child.pipeline().addLast("proxy-header", new HeaderReader());
        }
        // Without accept-proxy the session's handler goes on the pipeline before registration: the loop may
        // read from the connection before the registration listener below runs.
        TcpSession session = bind.acceptProxy ? null
                : new TcpSession(child, frontend, loops, child.remoteAddress(), child.localAddress(), null);
        if (session != null) {
            session.install();
        }
        loops.next().register(child).addListener(f -> {
            if (!f.isSuccess()) {
                child.close();
            } else if (session != null) {
                session.start();
            } else {
                armHeaderTimeout(child);
            }
        });
    }

    /** The PROXY header must arrive within {@code timeout client}, as any client data must. */
    private void armHeaderTimeout(Channel child) {
        long t = frontend.timeouts().client;
        if (t > 0) {
            child.eventLoop().schedule(() -> {
                if (child.pipeline().get("proxy-header") != null) {
                    child.close();
                }
            }, t, TimeUnit.MILLISECONDS);
        }
    }

    /** Waits for the PROXY header, keeps the bytes that follow it, then starts the session. */
    private final class HeaderReader extends ChannelInboundHandlerAdapter {
        private SocketAddress source;
        private SocketAddress destination;
        private ByteBuf early;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HAProxyMessage header) {
                try {
                    source = header.sourceAddress() == null ? ctx.channel().remoteAddress()
                            : new InetSocketAddress(header.sourceAddress(), header.sourcePort());
                    destination = header.destinationAddress() == null ? ctx.channel().localAddress()
                            : new InetSocketAddress(header.destinationAddress(), header.destinationPort());
                } finally {
                    header.release();
                }
                ctx.channel().config().setAutoRead(false);
            } else if (msg instanceof ByteBuf data) {
                // What the client sent right after the header, in the same segment.
                early = early == null ? data : ctx.alloc().compositeBuffer().addComponents(true, early, data);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (source != null) {
                ctx.pipeline().remove(this);
                new TcpSession(ctx.channel(), frontend, loops, source, destination, early).start();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (early != null) {
                early.release();
                early = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Not a PROXY header (or a broken one): HAProxy drops the connection.
            ctx.close();
        }
    }
}
