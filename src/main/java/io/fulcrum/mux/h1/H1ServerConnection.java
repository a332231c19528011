package io.fulcrum.mux.h1;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.conn.Socks4;
import io.fulcrum.conn.SourceAddress;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.pool.ReuseMode;
import io.fulcrum.pool.ServerIdle;
import io.fulcrum.pool.ServerPool;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.server.Server;
import io.fulcrum.stream.HttpStream;
import io.fulcrum.server.ServerSockets;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;

import java.net.SocketAddress;

/**
 * A connection to a server carrying HTTP/1.x: parses the responses for the stream it is attached to (counting
 * them for %B as HAProxy does: the HTX data of what it parsed), and waits in its loop's {@link ServerPool} between
 * transactions when it may be reused.
 */
public final class H1ServerConnection extends ChannelInboundHandlerAdapter implements MessageSink {
    public static final String NAME = "h1-server";

    private final Server server;
    private final H1Parser parser;
    private Channel channel;
    private ByteBuf input;
    private HttpStream stream;
    private boolean connected;
    /** Requests it carried (for {@code max-reuse}; more than one: "safe" for reuse). */
    private long requests;
    /** Carrying a transaction: counted in its server's used connections. */
    private boolean inUse;
    /** Bound to its client connection (the server asked for NTLM or Negotiate): never shared. */
    private boolean privateAuth;
    /**
     * Private in HAProxy's sense (conn_set_private: {@code http-reuse never}, NTLM): no longer one of the server's
     * used connections, nor ever again, as HAProxy's used_conn_cur leaves them out.
     */
    private boolean uncounted;
    private final ServerIdle serverConns;
    /** The response being read has a chunked body: it ends with HTX's end of trailers (counted in %B). */
    private boolean chunked;

    private H1ServerConnection(Server server, H1Limits limits, boolean acceptInvalid) {
        this.server = server;
        this.serverConns = ServerIdle.of(server);
        this.parser = new H1Parser(H1Parser.Kind.RESPONSE, limits, acceptInvalid);
    }

    /**
     * The handler of a channel {@link #connect} opened. Its pipeline's last one, asked first: a lookup by name
     * compares the name of each handler before it, once per request that reuses a connection.
     */
    public static H1ServerConnection of(Channel ch) {
        return ch.pipeline().last() instanceof H1ServerConnection c ? c : (H1ServerConnection) ch.pipeline().get(NAME);
    }

    /** Opens a connection to {@code server} on the client's loop; the future's channel carries this handler. */
    public static ChannelFuture connect(Channel client, EventLoops loops, Server server, Backend backend, SocketAddress address,
                                        H1Limits limits) {
        Channel ch = ServerSockets.open(loops, address, server.spec());
        SocketOptions opts = backend.socketOptions();
        opts.applyTo(ch, false);
        ServerSockets.apply(ch, server.spec());
        ch.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, backend.timeouts().connect));
        // A failed write (the server answered early and closed) only ends the output: what the server sent
        // before, its response maybe, is still read (see exceptionCaught).
        ch.config().setAutoClose(false);
        H1ServerConnection conn = new H1ServerConnection(server, limits, backend.httpOptions().acceptInvalidResponse);
        ch.pipeline().addLast(NAME, conn);
        server.connecting();
        conn.startUse(); // (from now, as HAProxy's conn_new(): an idle one coming back meanwhile is not one too many)
        if (backend.reuseMode() == ReuseMode.NEVER) {
            conn.uncount(); // (it counted while created: the estimated need is at least one)
        }
        return Socks4.connect(client.eventLoop().register(ch).channel(), address, SourceAddress.of(server, opts.source),
                Socks4.of(server)).addListener(f -> {
            if (f.isSuccess()) {
                conn.connected = true;
                server.connectionOpened();
                ch.closeFuture().addListener(c -> server.connectionClosed());
            } else {
                conn.endUse();
            }
        });
    }

    public Channel channel() {
        return channel;
    }

    /** Established and able to take a request. */
    public boolean ready() {
        return connected && channel.isActive();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    /** Carries {@code request} for {@code stream} from now on. */
    public void attach(HttpStream stream, RequestHead request) {
        this.stream = stream;
        requests++;
        startUse();
        parser.responseTo(request);
        EventLoops.resumeReading(channel);
    }

    /** The server asked for a connection-bound authentication: the connection stays with its client connection. */
    public void makePrivate() {
        privateAuth = true;
        uncount();
    }

    private void uncount() {
        endUse();
        uncounted = true;
    }

    public boolean isPrivate() {
        return privateAuth;
    }

    /**
     * The transaction is over. The connection goes back to its loop's pool when {@code shared} and the pool
     * admits it, to {@code owner} (a client connection that keeps it for itself, {@code http-reuse never}) when
     * not null, else it is closed; in every case only if it is clean (nothing more was received) and
     * {@code max-reuse} allows one more request.
     */
    public void detach(boolean shared, Server target, H1FrontConnection owner) {
        stream = null;
        boolean clean = channel.isActive() && parser.between() && (input == null || !input.isReadable())
                && serverConns.settings().reusableAfter(requests);
        if (clean && shared && ServerPool.current().release(target, channel, requests > 1)) {
            endUse();
        } else if (clean && !shared && owner != null) {
            endUse();
            owner.keepPrivateServer(target, this);
        } else {
            endUse();
            channel.close();
        }
    }

    private void startUse() {
        if (!inUse && !uncounted) {
            inUse = true;
            serverConns.used();
        }
    }

    private void endUse() {
        if (inUse) {
            inUse = false;
            serverConns.unused();
        }
    }

    /** The connection becomes a tunnel: this handler leaves and hands over the bytes it holds (or null). */
    public ByteBuf leaveForTunnel() {
        stream = null;
        if (inUse) {
            inUse = false; // (still used until closed)
            channel.closeFuture().addListener(f -> serverConns.unused());
        }
        ByteBuf left = input != null && input.isReadable() ? input : null;
        if (left == null && input != null) {
            input.release();
        }
        input = null;
        channel.pipeline().remove(this);
        return left;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (stream == null) {
            // Bytes from an idle server: nothing can be asking for them, the connection is not reusable.
            in.release();
            ctx.close();
            return;
        }
        stream.serverActive();
        input = H1Input.append(input, in);
        while (stream != null && input != null && input.isReadable()) {
            int before = input.readerIndex();
            try {
                parser.parse(input, this);
            } catch (H1Exception e) {
                HttpStream s = stream;
                keepForShowErrors(e, false);
                ctx.close();
                s.serverFailed(e);
                return;
            }
            if (input == null || input.readerIndex() == before) {
                break; // needs more bytes, or the connection became a tunnel
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (stream != null) {
            stream.flushToClient();
            if (stream.clientBusy()) {
                ctx.channel().config().setAutoRead(false);
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (stream != null && ctx.channel().isWritable()) {
            stream.serverWritable();
        }
    }

    /** The client can take response bytes again. */
    public void resumeReading() {
        if (stream != null) {
            EventLoops.resumeReading(channel);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endUse();
        HttpStream s = stream;
        if (s == null) {
            ServerPool.current().remove(server, ctx.channel());
        } else {
            try {
                parser.closed(this);
            } catch (H1Exception e) {
                s.serverTruncated(e);
            }
            if (stream != null) {
                stream.serverFailed(null);
            }
        }
        if (input != null) {
            input.release();
            input = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof java.io.IOException && ctx.channel().isActive() && stream != null) {
            // A write failed: the server closed or reset the connection, maybe right after answering
            // without reading the whole request (as HAProxy, its response is still forwarded). Reading
            // ends the connection (EOF or reset) after what it sent; timeout server bounds the rest.
            return;
        }
        ctx.close();
    }

    // --- parser events ------------------------------------------------------------------------------

    /** Keeps the response for {@code show errors}: its head just read ({@code head}), or where the parser failed. */
    private void keepForShowErrors(H1Exception e, boolean head) {
        HttpStream s = stream;
        H1Errors errors = s.frontend().process().h1Errors();
        H1Capture capture = head ? parser.headCapture(input, errors.bufsize()) : parser.capture(input, errors.bufsize());
        errors.response(s.backend(), s.frontend(), server, s.source(), capture, e);
    }

    @Override
    public void head(HttpHead head) {
        if (head.bodyLength() == HttpHead.CHUNKED && input.isReadable() && parser.chunkedBodyError(input) != null) {
            // A bad chunk in what came with the head: the head does not go on (HAProxy answers 502, PH); the parser
            // meets the error next.
            return;
        }
        if (parser.relaxed() != null) {
            keepForShowErrors(parser.relaxed(), true);
        }
        // %B counts the response as received (HAProxy's HTX data), before the stream's rules change it.
        stream.streamLog().bytesOut(HopByHop.receivedData(head));
        if (stream.frontend().logger().logasap()) {
            stream.streamLog().bodyWithHead(parser.bodyDataWithHead(input, head));
        }
        chunked = head.bodyLength() == HttpHead.CHUNKED;
        stream.responseHead((ResponseHead) head);
    }

    @Override
    public void data(ByteBuf data) {
        if (stream != null) {
            stream.streamLog().bytesOut(data.readableBytes());
            stream.responseData(data);
        } else {
            data.release();
        }
    }

    @Override
    public void trailers(HttpHeaders trailers) {
        if (stream != null) {
            stream.streamLog().bytesOut(trailers.htxData());
            stream.responseTrailers(trailers);
        }
    }

    @Override
    public void end() {
        if (stream != null) {
            if (chunked) {
                stream.streamLog().bytesOut(HttpHead.HTX_END);
            }
            stream.responseEnd();
        }
    }
}
