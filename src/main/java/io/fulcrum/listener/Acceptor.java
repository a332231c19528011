package io.fulcrum.listener;

import io.fulcrum.conn.ConnError;
import io.fulcrum.runtime.BufferOwner;
import io.fulcrum.conn.NetScalerCip;
import io.fulcrum.conn.DualStack;
import io.fulcrum.conn.ExpectedHeaders;
import io.fulcrum.sample.Endpoints;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.conn.IoUringHalfClose;
import io.fulcrum.conn.ProxyV2Tlvs;
import io.fulcrum.log.ConnectionContext;
import io.fulcrum.log.StreamLog;
import io.fulcrum.proxy.Frontend;
import io.fulcrum.proxy.Mode;
import io.fulcrum.log.TransactionWatcher;
import io.fulcrum.rules.TcpRules;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.runtime.LoopActivity;
import io.fulcrum.sample.Vars;
import io.fulcrum.stats.Counters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyTLV;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Sets up each accepted connection of a bind line: socket options, an event loop, the PROXY header when
 * the line has {@code accept-proxy}, then the frontend mode's session ({@link SessionStarter}).
 */
public final class Acceptor implements Consumer<Channel> {
    private final Frontend frontend;
    private final BindSpec bind;
    private final EventLoops loops;
    private final SessionStarter starter;
    /** How log lines name the bind line. */
    private final String name;

    public Acceptor(Frontend frontend, BindSpec bind, EventLoops loops, SessionStarter starter, String name) {
        this.frontend = frontend;
        this.bind = bind;
        this.loops = loops;
        this.starter = starter;
        this.name = name;
    }

    @Override
    public void accept(Channel child) {
        SocketOptions opts = frontend.socketOptions();
        // Both sides close their directions separately, as HAProxy does (a client may send its request
        // and shut its side at once: the response still goes back).
        child.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        IoUringHalfClose.watch(child);
        child.config().setAllocator(frontend.mode() == Mode.HTTP ? BufferOwner.FRONTEND_HTTP : BufferOwner.FRONTEND_TCP);
        opts.applyTo(child, true);
        SocketAddress source = DualStack.asSeen(child, child.remoteAddress());
        SocketAddress destination = DualStack.asSeen(child, child.localAddress());
        Endpoints.attach(child, source, destination);
        TcpRules rules = frontend.tcpRules();
        // Installed before the registration, so that no byte read at once misses them; when a connection rule may ask
        // for a header, once the rules are done (still before the first read).
        Runnable ready = rules.expectsHeaders() ? null : setUp(child, source, destination, false, false);
        // The listener is in place before the registration completes, so that the connection rules run before the
        // loop reads anything (a listener added later may run after the first bytes were handled).
        ChannelPromise registered = child.newPromise();
        Listener listener = Listener.of(child);
        boolean pushed = listener.spreads();
        registered.addListener(f -> {
            if (pushed) {
                LoopActivity.pushed(); // on the chosen loop
            }
            if (!f.isSuccess()) {
                reset(child);
            } else if (!rules.hasConnectionRules() || rules.acceptConnection(connection(child))) {
                if (ready != null) {
                    ready.run();
                } else {
                    ExpectedHeaders expected = ExpectedHeaders.of(child);
                    setUp(child, source, destination, expected.proxy(), expected.netscalerCip()).run();
                }
            } else {
                frontend.counters().increment(Counters.Count.DENIED_CONN);
                Listener.count(child, Counters.Count.DENIED_CONN);
                reset(child);
            }
        });
        listener.loopFor(child).register(registered);
    }

    /**
     * Installs what reads the connection before its session: the PROXY and NetScaler headers the bind line or the
     * connection rules ({@code proxy}, {@code cip}) ask for, the TLS handshake, and returns what to run once the
     * connection rules accepted it.
     */
    private Runnable setUp(Channel child, SocketAddress source, SocketAddress destination, boolean proxy, boolean cip) {
        boolean acceptProxy = proxy || bind.acceptProxy;
        boolean acceptCip = cip || bind.netscalerCipMagic != 0;
        if (acceptProxy || acceptCip || bind.transport != null) {
            // Th counts from here: the header's wait and the TLS handshake are the connection's handshake.
            child.attr(StreamLog.ACCEPTED).set(new long[] {System.nanoTime(), System.currentTimeMillis()});
        }
        if (acceptProxy || acceptCip) {
            // When both are expected, the NetScaler header comes first, then the PROXY one, as HAProxy 2.6 reads them.
            ByteCounter cipBytes = acceptCip ? new ByteCounter(null) : null;
            ByteCounter proxyBytes = acceptProxy ? new ByteCounter(new ProxyV2Tlvs()) : null;
            HeaderReader reader = new HeaderReader(cipBytes, proxyBytes);
            if (acceptCip) {
                child.pipeline().addLast("cip-bytes", cipBytes);
                child.pipeline().addLast("cip-decoder", new NetScalerCip(bind.netscalerCipMagic));
            }
            if (acceptProxy) {
                child.pipeline().addLast("proxy-bytes", proxyBytes);
                child.pipeline().addLast("proxy-decoder", new HAProxyMessageDecoder());
            }
            child.pipeline().addLast("proxy-header", reader);
            return () -> armHeaderTimeout(child, reader);
        }
        if (bind.transport != null) {
            return secure(child, source, destination, null);
        }
        // The session comes once the connection and session rules accepted it (still before the first read): a
        // connection they reject is no session, counted as denied and not logged, as HAProxy documents.
        return () -> {
            if (sessionAccepted(child, null)) {
                starter.install(child, source, destination, null).run();
            }
        };
    }

    /** Closes a rejected connection at once with a reset, as HAProxy does: nothing lingers. */
    private static void reset(Channel child) {
        child.config().setOption(ChannelOption.SO_LINGER, 0);
        child.close();
    }

    /** What tcp-request connection and session rules see: the connection, before any transaction. */
    private ConnectionContext connection(Channel child) {
        return new ConnectionContext(child, frontend, Vars.session(child), null);
    }

    /**
     * Runs the tcp-request session rules; a rejected connection is closed (and its early bytes dropped): with a FIN, as
     * HAProxy's, where a connection rule's rejection is a reset.
     */
    private boolean sessionAccepted(Channel child, ByteBuf early) {
        TcpRules rules = frontend.tcpRules();
        if (rules.hasSessionRules() && !rules.acceptSession(connection(child))) {
            frontend.counters().increment(Counters.Count.DENIED_SESS);
            Listener.count(child, Counters.Count.DENIED_SESS);
            if (early != null) {
                early.release();
            }
            child.close();
            return false;
        }
        TransactionWatcher watcher = TransactionWatcher.of(child);
        if (watcher != null) {
            watcher.sessionAccepted();
        }
        return true;
    }

    /**
     * Installs the bind's transport (TLS) and returns what to run once the tcp-request connection rules accepted
     * the connection: the session rules and the session come when both that and the handshake are done, as in
     * HAProxy; a connection that fails before is logged with the transport's reason.
     *
     * @param early bytes that followed a PROXY header, or null: they are the start of the handshake
     */
    private Runnable secure(Channel child, SocketAddress source, SocketAddress destination, ByteBuf early) {
        boolean[] steps = new boolean[2]; // {accepted by the connection rules, handshake done}; touched on the loop only
        Runnable session = () -> {
            if (steps[0] && steps[1] && sessionAccepted(child, null)) {
                starter.install(child, source, destination, null).run();
            }
        };
        Listener li = Listener.of(child);
        Counters listenerCounts = li != null ? li.counters() : null; // (option socket-stats)
        bind.transport.install(child, () -> {
            steps[1] = true;
            session.run();
        }, (reason, bytes) -> frontend.logger().handshakeFailed(frontend, child, bytes, name, reason),
                frontend.counters(), listenerCounts);
        if (early != null) {
            child.pipeline().fireChannelRead(early);
        }
        return () -> {
            steps[0] = true;
            session.run();
        };
    }

    /** The PROXY (or NetScaler) header must arrive within {@code timeout client}, as any client data must. */
    private void armHeaderTimeout(Channel child, HeaderReader reader) {
        long t = frontend.timeouts().client;
        if (t > 0) {
            child.eventLoop().schedule(() -> {
                if (child.pipeline().get("proxy-header") != null) {
                    reader.failed(child, reader.waitingForCip() ? ConnError.CIP_TIMEOUT : ConnError.PRX_TIMEOUT);
                    child.close();
                }
            }, t, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Counts the bytes that came for a header (the NetScaler one, or the PROXY one after it), to tell a truncated header
     * from none for the log, and keeps a v2 PROXY header's for the check of its TLVs.
     */
    private static final class ByteCounter extends ChannelInboundHandlerAdapter {
        private final ProxyV2Tlvs tlvs;
        private long bytes;

        ByteCounter(ProxyV2Tlvs tlvs) {
            this.tlvs = tlvs;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                bytes += b.readableBytes();
                if (tlvs != null) {
                    tlvs.read(b);
                }
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Waits for the NetScaler Client IP header or the PROXY one (or the first then the second), keeps the bytes that
     * follow, then starts the session; logs the connections that end without a valid header, as HAProxy does.
     */
    private final class HeaderReader extends ChannelInboundHandlerAdapter {
        private static final int PP2_TYPE_AUTHORITY = 0x02;
        private static final int PP2_TYPE_UNIQUE_ID = 0x05;
        /** What came for each header, or null when it is not expected. */
        private final ByteCounter cipBytes;
        private final ByteCounter proxyBytes;
        private boolean read;
        private String authority;
        private String uniqueId;
        private ByteBuf early;
        private boolean failed;
        /** The headers still awaited, the NetScaler one first. */
        private boolean cipAwaited;
        private boolean proxyAwaited;

        HeaderReader(ByteCounter cipBytes, ByteCounter proxyBytes) {
            this.cipBytes = cipBytes;
            this.proxyBytes = proxyBytes;
            cipAwaited = cipBytes != null;
            proxyAwaited = proxyBytes != null;
        }

        /** The header awaited now is the NetScaler one. */
        boolean waitingForCip() {
            return cipAwaited;
        }

        /** The connection ends before a valid header: its log line, once. */
        void failed(Channel ch, ConnError reason) {
            if (!failed && (cipAwaited || proxyAwaited)) {
                failed = true;
                frontend.logger().handshakeFailed(frontend, ch, (cipBytes != null ? cipBytes : proxyBytes).bytes, name, reason);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HAProxyMessage header) {
                try {
                    Endpoints.of(ctx.channel()).fromProxyHeader(
                            header.sourceAddress() == null ? null : new InetSocketAddress(header.sourceAddress(), header.sourcePort()),
                            header.destinationAddress() == null ? null
                                    : new InetSocketAddress(header.destinationAddress(), header.destinationPort()));
                    authority = tlv(header, PP2_TYPE_AUTHORITY);
                    uniqueId = tlv(header, PP2_TYPE_UNIQUE_ID);
                } finally {
                    header.release();
                }
                if (!proxyBytes.tlvs.wellFormed()) {
                    // Logged with the header's addresses, as HAProxy which reads them before the TLVs.
                    failed(ctx.channel(), ConnError.PRX_BAD_HDR);
                    reset(ctx.channel());
                    return;
                }
                proxyAwaited = false;
                headerRead(ctx);
            } else if (msg instanceof NetScalerCip.Header header) {
                Endpoints.of(ctx.channel()).fromHeader(header.source(), header.destination());
                cipAwaited = false;
                headerRead(ctx);
            } else if (msg instanceof ByteBuf data) {
                // What the client sent right after the header, in the same segment.
                early = early == null ? data : ctx.alloc().compositeBuffer().addComponents(true, early, data);
            }
        }

        private void headerRead(ChannelHandlerContext ctx) {
            read = true;
            if (!proxyAwaited) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        /** The value of the header's TLV of that type, as text (HAProxy's fetches return it as a string), or null. */
        private static String tlv(HAProxyMessage header, int type) {
            for (HAProxyTLV t : header.tlvs()) {
                if ((t.typeByteValue() & 0xff) == type) {
                    return t.content().toString(StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!cipAwaited && !proxyAwaited && read) {
                ctx.pipeline().remove(this);
                if (cipBytes != null) {
                    ctx.pipeline().remove(cipBytes);
                }
                if (proxyBytes != null) {
                    ctx.pipeline().remove(proxyBytes);
                }
                ByteBuf data = early;
                early = null;
                Endpoints endpoints = Endpoints.of(ctx.channel());
                SocketAddress source = endpoints.source();
                SocketAddress destination = endpoints.destination();
                endpoints.proxyTlvs(authority, uniqueId);
                if (bind.transport != null) {
                    secure(ctx.channel(), source, destination, data).run(); // the connection rules ran at the accept
                    ctx.channel().config().setAutoRead(true);
                } else if (sessionAccepted(ctx.channel(), data)) {
                    starter.install(ctx.channel(), source, destination, data).run();
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (early != null) {
                early.release();
                early = null;
            }
            failed(ctx.channel(), ended());
            ctx.fireChannelInactive();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent && (cipAwaited || proxyAwaited)) {
                // The client shut its side before a whole header: there will never be one. What came of one stays
                // unread, so HAProxy's close is a reset then.
                ConnError reason = ended();
                failed(ctx.channel(), reason);
                if (reason == ConnError.CIP_TRUNCATED || reason == ConnError.PRX_TRUNCATED) {
                    reset(ctx.channel());
                } else {
                    ctx.close();
                }
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }

        /** Why a connection that ended before its headers failed: nothing came of the header awaited, or a part of it. */
        private ConnError ended() {
            if (cipAwaited) {
                return cipBytes.bytes > 0 ? ConnError.CIP_TRUNCATED : ConnError.CIP_EMPTY;
            }
            return proxyBytes.bytes > 0 ? ConnError.PRX_TRUNCATED : ConnError.PRX_EMPTY;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Not a PROXY header (or a broken one), or a bad NetScaler one: HAProxy drops the connection with a reset
            // (it only peeks at a header until it is whole, so what came is still unread when it closes).
            failed(ctx.channel(), cause instanceof NetScalerCip.Invalid cip ? cip.reason()
                    : proxyBytes != null ? proxyBytes.tlvs.failure() : ConnError.PRX_NOT_HDR);
            reset(ctx.channel());
        }
    }
}
