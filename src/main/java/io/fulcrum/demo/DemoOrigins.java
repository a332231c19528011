package io.fulcrum.demo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Tiny HTTP origins for the quick-start demo (bin/quickstart): each answers every request with a page
 * naming itself, so load balancing shows in the answers. Not part of the proxy.
 */
public final class DemoOrigins {
    private DemoOrigins() {
    }

    /** Arguments: host:port of each origin to start. */
    public static void main(String[] args) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        for (int i = 0; i < args.length; i++) {
            String[] hp = args[i].split(":");
            String name = "demo server " + (i + 1) + " (" + args[i] + ")";
            new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                        @Override
                        protected void initChannel(io.netty.channel.Channel ch) {
                            ch.pipeline().addLast(new Responder(name));
                        }
                    })
                    .bind(new InetSocketAddress(hp[0], Integer.parseInt(hp[1]))).sync();
        }
        group.terminationFuture().sync();
    }

    /** Answers once the request head has arrived, then closes. */
    private static final class Responder extends ChannelInboundHandlerAdapter {
        private final String name;
        private final StringBuilder head = new StringBuilder();

        Responder(String name) {
            this.name = name;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                head.append(b.toString(StandardCharsets.ISO_8859_1));
            } finally {
                b.release();
            }
            if (head.indexOf("\r\n\r\n") >= 0 || head.indexOf("\n\n") >= 0) {
                String body = "Hello from " + name + ", through Fulcrum.\n";
                String resp = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length()
                        + "\r\nConnection: close\r\n\r\n" + body;
                ctx.writeAndFlush(Unpooled.copiedBuffer(resp, StandardCharsets.ISO_8859_1)).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
