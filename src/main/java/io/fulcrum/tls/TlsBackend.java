package io.fulcrum.tls;

import io.fulcrum.conn.ConnError;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.stats.Counters;
import io.fulcrum.sample.SampleType;
import io.fulcrum.server.ServerTransport;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.concurrent.Future;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * TLS on the connections to a server: an SslHandler at the head of the pipeline, with the name of {@code sni} when
 * the line has one. Unless {@code no-ssl-reuse}, the engine is made for the server's address (or the SNI name) and
 * port, so that the context's client session cache offers the last session again. A commit of the line's client
 * certificate ({@code commit ssl cert}) replaces the context.
 */
final class TlsBackend implements ServerTransport {
    /** Read once per connection; replaced by a commit of the client certificate. */
    private volatile SslContext context;
    private final Expr sni;
    /** A fixed name to send (a health check's {@code check-sni}), or null. */
    private final String fixedSni;
    private final boolean reuse;
    private final boolean verifyName;
    private final long handshakeTimeoutMillis;
    /** The process's TLS connections, under maxsslconn. */
    private final TlsConnections connections;

    TlsBackend(SslContext context, Expr sni, String fixedSni, boolean reuse, boolean verifyName, long handshakeTimeoutMillis,
               TlsConnections connections) {
        this.connections = connections;
        this.context = context;
        this.sni = sni;
        this.fixedSni = fixedSni;
        this.reuse = reuse;
        this.verifyName = verifyName;
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    }

    /** The context of the next connections (those open keep theirs). */
    void context(SslContext context) {
        this.context = context;
    }

    @Override
    public String nameFor(SampleContext stream) {
        Sample s = new Sample();
        return sni != null && sni.eval(stream, s, SampleType.STR) && s.length() > 0 ? s.asText() : null;
    }

    @Override
    public boolean namesPerStream() {
        return sni != null;
    }

    @Override
    public Future<Channel> install(Channel ch, SampleContext stream, Counters... counters) {
        if (!connections.open(ch)) {
            // maxsslconn: a failed connection (closed, so that no plain byte ever goes to the server).
            ConnError.SSL_TOO_MANY.setOn(ch);
            ch.close();
            return ch.eventLoop().newFailedFuture(new javax.net.ssl.SSLException(ConnError.SSL_TOO_MANY.message()));
        }
        String name = sni != null ? nameFor(stream) : fixedSni;
        InetSocketAddress peer = ch.remoteAddress() instanceof InetSocketAddress a ? a : null;
        SslContext context = this.context;
        SSLEngine engine = !reuse || peer == null ? context.newEngine(ch.alloc())
                : context.newEngine(ch.alloc(), name != null ? name : peer.getAddress().getHostAddress(), peer.getPort());
        if (name != null) {
            SSLParameters p = engine.getSSLParameters();
            p.setServerNames(List.of(new SNIHostName(name)));
            if (verifyName) {
                p.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must be for that name
            }
            engine.setSSLParameters(p);
        }
        NativeContext.keepTicketChoice(context, engine);
        SslHandler handler = new SslHandler(engine);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        String sent = name;
        handler.handshakeFuture().addListener(f -> {
            if (f.isSuccess()) {
                // The randoms and master key (ssl_bc_client_random...): HAProxy reads them without tune.ssl.keylog.
                connections.handshakes.backend(TlsConnection.completed(ch, handler, sent, null, new KeyLog.Secrets(), null));
            } else {
                (f.cause() instanceof SslHandshakeTimeoutException ? ConnError.SSL_TIMEOUT : ConnError.SSL_HANDSHAKE).setOn(ch);
            }
            SslCounts.ended(ch, f.isSuccess(), counters);
        });
        ch.pipeline().addFirst("tls", handler);
        return handler.handshakeFuture();
    }
}
