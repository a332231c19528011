package io.fulcrum.tls;

import io.fulcrum.conn.ConnError;
import io.fulcrum.conn.NativeOptions;
import io.fulcrum.listener.Transport;
import io.fulcrum.stats.Counters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SniCompletionEvent;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

import javax.net.ssl.SSLEngine;
import java.nio.charset.StandardCharsets;

/**
 * TLS on the accepted connections of a bind line: an SNI handler reads the ClientHello, picks the certificate's
 * context and puts its SslHandler in its place at the head of the pipeline, ahead of the session (the mux), which
 * gets the decrypted bytes in the buffers the handler produces. The handshake must end within
 * {@code timeout client}.
 */
final class TlsFrontend implements Transport {
    private final SniMap certificates;
    private final long handshakeTimeoutMillis;
    private final boolean keylog;
    /** tune.ssl.(hard-)maxrecord: the most bytes of a record, 0 for TLS's own limit. */
    private final int recordLimit;
    /** tune.ssl.capture-buffer-size: how much of the ClientHello's lists to keep, 0 for nothing. */
    private final int captureSize;
    /** The process's TLS connections, under maxsslconn. */
    private final TlsConnections connections;

    TlsFrontend(SniMap certificates, long handshakeTimeoutMillis, TlsGlobals globals) {
        this.certificates = certificates;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.keylog = globals.keylog;
        this.recordLimit = globals.recordLimit();
        this.captureSize = globals.captureSize;
        this.connections = globals.connections;
    }

    /** The certificates by name (for the CLI's commands on certificates). */
    SniMap certificates() {
        return certificates;
    }

    @Override
    public void install(Channel ch, Runnable ready, Failure failed, Counters... counters) {
        if (!connections.open(ch)) {
            // maxsslconn: no handshake, nothing logged (HAProxy 2.6 leaves it unanswered, differences.md).
            ch.pipeline().addFirst("tls", Refused.INSTANCE);
            return;
        }
        Selector selector = new Selector(this);
        ch.pipeline().addFirst("tls", selector);
        ch.pipeline().addAfter("tls", "tls-handshake", new Handshake(selector, connections.handshakes, ready, failed, counters));
    }

    /** Closes a connection over maxsslconn once registered (install runs before), reading nothing of it. */
    @ChannelHandler.Sharable
    private static final class Refused extends ChannelInboundHandlerAdapter {
        static final Refused INSTANCE = new Refused();

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.close();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Picks the certificate by SNI, then becomes the connection's SslHandler. Counts the bytes until then. */
    private static final class Selector extends SniHandler {
        /** A TLS 1.2 record holding a fatal unrecognized_name alert (112). */
        private static final byte[] UNRECOGNIZED_NAME = {21, 3, 3, 0, 2, 2, 112};
        private final SniMap certificates;
        private final boolean keylog;
        private final int recordLimit;
        /** With tune.ssl.capture-buffer-size: gathers the ClientHello. */
        final HelloCapture.Collector hello;
        private Channel channel;
        long bytes;
        String host;
        /** With tune.ssl.keylog: where the handshake's secrets go. */
        KeyLog.Secrets secrets;
        /** The engine of the chosen certificate's context, once the ClientHello was read; else null. */
        SSLEngine engine;
        /** What the client sent first (5 bytes at most), to name what is not TLS as BoringSSL does. */
        String head = "";
        /** What the ClientHello offered to resume with ({@link HandshakeCounts#offer}). */
        int offer;
        /** The chosen context refuses tickets. */
        boolean ticketsOff;
        /** The context the SNI chose, once the ClientHello was read; else null. */
        private SslContext chosen;

        Selector(TlsFrontend f) {
            super(f.certificates, 0, f.handshakeTimeoutMillis);
            this.certificates = f.certificates;
            this.keylog = f.keylog;
            this.recordLimit = f.recordLimit;
            this.hello = f.captureSize > 0 ? new HelloCapture.Collector(f.captureSize) : null;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
            channel = ctx.channel();
            super.handlerAdded(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof ByteBuf b) {
                if (head.length() < 5) {
                    head += b.toString(b.readerIndex(), Math.min(b.readableBytes(), 5 - head.length()), StandardCharsets.ISO_8859_1);
                }
                bytes += b.readableBytes();
                if (hello != null) {
                    hello.read(b);
                }
            }
            super.channelRead(ctx, msg);
        }

        @Override
        protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
            SslHandler handler = super.newSslHandler(context, allocator);
            engine = handler.engine();
            ticketsOff = NativeContext.keepTicketChoice(context, engine);
            if (recordLimit > 0) {
                handler.setWrapDataSize(recordLimit);
            }
            if (keylog) {
                secrets = KeyLog.track(channel, handler.engine()); // before the handshake reads the ClientHello
            }
            return handler;
        }

        @Override
        protected Future<SslContext> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) throws Exception {
            offer = HandshakeCounts.offer(clientHello);
            host = clientHello == null ? null : HelloFetches.bodyServerName(clientHello);
            return super.lookup(ctx, clientHello);
        }

        @Override
        protected Future<SslContext> lookup(ChannelHandlerContext ctx, String hostname) throws Exception {
            if (host == null) {
                host = hostname; // ssl_fc_sni of a handshake that finds no certificate too
            }
            return super.lookup(ctx, hostname);
        }

        /** No certificate for the name (strict-sni): HAProxy's OpenSSL refuses the ClientHello with a fatal alert. */
        @Override
        protected void onLookupComplete(ChannelHandlerContext ctx, Future<SslContext> future) throws Exception {
            if (!future.isSuccess()) {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(UNRECOGNIZED_NAME));
            }
            super.onLookupComplete(ctx, future);
        }

        /** The chosen context's verifier of client certificates, or null (looked up when a resumed session needs it). */
        ClientVerifier verifier() {
            return chosen == null ? null : certificates.verifier(chosen);
        }

        @Override
        protected void replaceHandler(ChannelHandlerContext ctx, String hostname, SslContext sslContext) throws Exception {
            chosen = sslContext;
            super.replaceHandler(ctx, hostname, sslContext);
        }
    }

    /**
     * Waits for the end of the handshake, then records the connection's TLS state, leaves, and lets the session
     * in. Netty tells the handshake's end (an event) before it passes the first decrypted bytes.
     */
    private static final class Handshake extends ChannelInboundHandlerAdapter {
        private final Selector selector;
        private final Runnable ready;
        private final Failure failed;
        private final HandshakeCounts handshakes;
        private final Counters[] counters;
        private boolean done;

        Handshake(Selector selector, HandshakeCounts handshakes, Runnable ready, Failure failed, Counters[] counters) {
            this.selector = selector;
            this.handshakes = handshakes;
            this.ready = ready;
            this.failed = failed;
            this.counters = counters;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent e && !done) {
                if (e.isSuccess()) {
                    done = true;
                    TlsConnection t = TlsConnection.completed(ctx.channel(), ctx.pipeline().get(SslHandler.class), selector.host,
                            selector::verifier, selector.secrets, selector.hello == null ? null : selector.hello.capture);
                    handshakes.frontend(t, selector.offer, selector.ticketsOff);
                    SslCounts.ended(ctx.channel(), true, counters);
                    ctx.pipeline().remove(this);
                    ackFinished(ctx.channel());
                    ready.run();
                } else {
                    fail(ctx, e.cause());
                }
                return;
            }
            if (evt instanceof ChannelInputShutdownEvent) {
                fail(ctx, null); // the client shut its side: the handshake will never end (HAProxy's read0)
                return;
            }
            if (evt instanceof SniCompletionEvent e && e.cause() instanceof SslHandshakeTimeoutException) {
                fail(ctx, e.cause()); // no ClientHello in time
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }

        /**
         * Acknowledges the client's Finished now. BoringSSL sends its session tickets with the first response, not
         * after the handshake as OpenSSL does, so nothing carries that ACK: with delayed ACKs (tcp-smart-accept) a
         * client without TCP_NODELAY (ab, Python) then holds its request back (Nagle) for the kernel's 40 ms.
         */
        private static void ackFinished(io.netty.channel.Channel ch) {
            NativeOptions.quickAck(ch, true);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Not TLS, no certificate for the name (strict-sni), a broken record...
            fail(ctx, cause);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(ctx, null);
            ctx.fireChannelInactive();
        }

        /** @param cause the failure, or null when the client left */
        private void fail(ChannelHandlerContext ctx, Throwable cause) {
            if (!done) {
                done = true;
                HandshakeError error = cause == null || cause instanceof SslHandshakeTimeoutException ? HandshakeError.NONE
                        : cause instanceof NotSslRecordException ? HandshakeError.notTls(selector.head) : HandshakeError.of(cause);
                TlsConnection t = TlsConnection.failed(ctx.channel(), selector.engine, selector.host, error);
                if (!(cause instanceof SslHandshakeTimeoutException)) {
                    SslCounts.ended(ctx.channel(), false, counters); // (a timeout ends the session, not the handshake)
                }
                failed.failed(reason(cause, t), selector.bytes);
            }
            ctx.close();
        }

        /** HAProxy's connection error: the client certificate's, else whether the client's ClientHello was read. */
        private ConnError reason(Throwable cause, TlsConnection t) {
            if (cause instanceof SslHandshakeTimeoutException) {
                return ConnError.SSL_TIMEOUT;
            }
            if (t.verify.refused()) {
                return t.verify.refusedAt() == 0 ? ConnError.SSL_CRT_FAIL : ConnError.SSL_CA_FAIL;
            }
            return cause == null && selector.engine == null ? ConnError.SSL_EMPTY : ConnError.SSL_HANDSHAKE;
        }
    }
}
