package io.fulcrum.conn;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerSpec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.ConnectTimeoutException;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * {@code socks4 <addr>:<port>} on a server line: connections to the server go through that SOCKS4 proxy. As HAProxy,
 * the request is version 4, CONNECT, the server's port and IPv4 address and the user id "HAProxy"; the proxy's
 * 8-byte answer must grant it (90). A connection is established once it did, within the connect timeout.
 */
public final class Socks4 {
    private static final byte[] USER = "HAProxy\0".getBytes(StandardCharsets.US_ASCII);

    private Socks4() {
    }

    /** A server line's {@code socks4}. */
    public static final class OnServer implements ServerSpec.ServerPart {
        InetSocketAddress proxy;

        @Override
        public OnServer copy() {
            OnServer c = new OnServer();
            c.proxy = proxy;
            return c;
        }
    }

    /** Parses {@code socks4 <addr>:<port>} (port mandatory, IPv4 as SOCKS4 needs). */
    static InetSocketAddress parse(String text) throws ConfigException {
        String where = "'socks4 " + text + "' : ";
        if (text.lastIndexOf(':') < 0) {
            throw new ConfigException(where + "missing port specification in '" + text + "'.");
        }
        ServerSpec s;
        try {
            s = ServerSpec.fixedAddress("socks4", text);
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage() + ".");
        }
        if (!(s.endpoint instanceof Endpoint.Inet in)) {
            throw new ConfigException(where + "expects <addr>:<port> as argument.");
        }
        return in.socketAddress();
    }

    /** The SOCKS4 proxy of {@code server}'s connections, or null. */
    public static InetSocketAddress of(Server server) {
        OnServer own = server.spec().partOrNull(OnServer.class);
        return own == null ? null : own.proxy;
    }

    /**
     * Connects {@code ch} (registered) to {@code remote} from {@code source}, through {@code proxy} when it is not null:
     * the future completes once the proxy granted the connection.
     */
    public static ChannelFuture connect(Channel ch, SocketAddress remote, SourceAddress source, InetSocketAddress proxy) {
        if (proxy == null) {
            return SourceAddress.connect(ch, remote, source);
        }
        ChannelPromise done = ch.newPromise();
        SourceAddress.connect(ch, proxy, source).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                done.tryFailure(f.cause());
            } else if (!(remote instanceof InetSocketAddress to) || !(to.getAddress() instanceof Inet4Address)) {
                ch.close();
                done.tryFailure(new ConnectException("SOCKS4 reaches IPv4 addresses only: " + remote));
            } else {
                ch.pipeline().addFirst("socks4", new Handshake(to, done));
            }
        });
        return done;
    }

    /** Sends the request, then waits for the 8-byte answer; removes itself once granted. */
    private static final class Handshake extends ChannelInboundHandlerAdapter {
        private final InetSocketAddress to;
        private final ChannelPromise done;
        private ByteBuf answer;
        private ScheduledFuture<?> timer;

        Handshake(InetSocketAddress to, ChannelPromise done) {
            this.to = to;
            this.done = done;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ByteBuf req = ctx.alloc().buffer(8 + USER.length);
            req.writeByte(4).writeByte(1).writeShort(to.getPort()).writeBytes(to.getAddress().getAddress()).writeBytes(USER);
            ctx.writeAndFlush(req, ctx.voidPromise());
            Integer limit = ctx.channel().config().getOption(ChannelOption.CONNECT_TIMEOUT_MILLIS);
            if (limit != null && limit > 0) {
                timer = ctx.executor().schedule(() -> fail(ctx, new ConnectTimeoutException("SOCKS4 proxy did not answer")), limit,
                        TimeUnit.MILLISECONDS);
            }
            ctx.read(); // the connection may not read on its own yet (a pooled HTTP one waits for its first request)
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            if (answer == null) {
                answer = ctx.alloc().buffer(8);
            }
            answer.writeBytes(in, Math.min(in.readableBytes(), 8 - answer.readableBytes()));
            if (answer.readableBytes() < 8) {
                in.release();
                return;
            }
            boolean granted = answer.getByte(1) == 90;
            answer.release();
            answer = null;
            if (!granted) {
                in.release();
                fail(ctx, new ConnectException("SOCKS4 proxy refused the connection"));
                return;
            }
            cancelTimer();
            ctx.pipeline().remove(this);
            done.trySuccess();
            if (in.isReadable()) {
                ctx.fireChannelRead(in); // the server spoke first
            } else {
                in.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!done.isDone()) {
                ctx.read();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(ctx, new ConnectException("SOCKS4 proxy closed the connection"));
            ctx.fireChannelInactive();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            cancelTimer();
            if (answer != null) {
                answer.release();
                answer = null;
            }
        }

        private void fail(ChannelHandlerContext ctx, Throwable cause) {
            cancelTimer();
            if (done.tryFailure(cause)) {
                ctx.close();
            }
        }

        private void cancelTimer() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }
    }
}
