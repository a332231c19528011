package io.fulcrum.tls;

import io.fulcrum.runtime.Fulcrum;
import io.fulcrum.runtime.Services;
import io.fulcrum.stats.InfoField;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The process's TLS connections, both sides, as HAProxy counts them ({@code show info}'s CurrSslConns and
 * CumSslConns), under {@code maxsslconn} (MaxSslConns, 0 for no limit): a connection takes a slot before its
 * handshake starts and gives it back when it closes. A compare-and-set: any loop may take or give one. Also what
 * their handshakes made ({@link HandshakeCounts}).
 */
final class TlsConnections implements Services.Service {
    private final AtomicInteger current = new AtomicInteger();
    private final LongAdder total = new LongAdder();
    final HandshakeCounts handshakes = new HandshakeCounts();
    /** {@code maxsslconn}, 0 for no limit. */
    int max;
    /** Gives the slot back: one listener for all the connections. */
    private final ChannelFutureListener release = f -> current.decrementAndGet();

    /** Takes a slot for {@code ch} until it closes; false (and nothing taken) when maxsslconn is reached. */
    boolean open(Channel ch) {
        int n;
        do {
            n = current.get();
            if (max > 0 && n >= max) {
                return false;
            }
        } while (!current.compareAndSet(n, n + 1));
        total.increment();
        ch.closeFuture().addListener(release);
        return true;
    }

    @Override
    public boolean start(Fulcrum process) {
        return true;
    }

    @Override
    public void stop() {
    }

    @Override
    public void clearMax() {
        handshakes.frontendKeys.resetMax();
        handshakes.backendKeys.resetMax();
    }

    @Override
    public long info(InfoField field) {
        return switch (field) {
            case MAXSSLCONNS -> max;
            case CURRSSLCONNS -> current.get();
            case CUMSSLCONNS -> total.sum();
            case SSLFRONTENDKEYRATE -> handshakes.frontendKeys.rate();
            case SSLFRONTENDMAXKEYRATE -> handshakes.frontendKeys.max();
            case SSLBACKENDKEYRATE -> handshakes.backendKeys.rate();
            case SSLBACKENDMAXKEYRATE -> handshakes.backendKeys.max();
            case SSLCACHELOOKUPS -> handshakes.lookups();
            case SSLCACHEMISSES -> handshakes.misses();
            default -> 0;
        };
    }
}
