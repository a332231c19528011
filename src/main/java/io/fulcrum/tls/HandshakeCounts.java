package io.fulcrum.tls;

import io.fulcrum.stats.PerLoop;
import io.fulcrum.stats.RateCounter;
import io.netty.buffer.ByteBuf;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What {@code show info} counts of the handshakes, as HAProxy's ssl_sock does where a handshake ends: the full ones
 * (a new key: {@code SslFrontendKeyRate}, {@code SslBackendKeyRate} and their highest rates; resumed ones make no key)
 * and, on the bind lines, the session cache's lookups by session ID and their misses ({@code SslCacheLookups},
 * {@code SslCacheMisses}). As OpenSSL, a server looks a session up by ID only below TLS 1.3, when the client sends an
 * ID without a ticket (or the context takes no tickets); a lookup that did not resume is a miss. Each event loop counts
 * in its own cells (no lock, no shared cache line).
 */
final class HandshakeCounts {
    /** What a ClientHello offers to resume with ({@link #offer}). */
    static final int SESSION_ID = 1;
    static final int TICKET = 2;
    private static final int SESSION_TICKET_EXTENSION = 35;

    final RateCounter frontendKeys = new RateCounter();
    final RateCounter backendKeys = new RateCounter();
    /** Per loop: the lookups, then the misses. */
    private final PerLoop<AtomicLongArray> lookups = new PerLoop<>(() -> new AtomicLongArray(2));

    /** A server connection's handshake ended: a new key unless it resumed. */
    void backend(TlsConnection t) {
        if (!t.resumed) {
            backendKeys.add();
        }
    }

    /**
     * A client connection's handshake ended.
     *
     * @param offer       what its ClientHello offered ({@link #offer})
     * @param ticketsOff  the context refuses tickets ({@code no-tls-tickets}): an offered ticket is not read
     */
    void frontend(TlsConnection t, int offer, boolean ticketsOff) {
        if (!t.resumed) {
            frontendKeys.add();
        }
        if ((offer & SESSION_ID) != 0 && ((offer & TICKET) == 0 || ticketsOff) && !"TLSv1.3".equals(t.protocol)) {
            AtomicLongArray c = lookups.mine();
            c.getAndIncrement(0);
            if (!t.resumed) {
                c.getAndIncrement(1);
            }
        }
    }

    long lookups() {
        return sum(0);
    }

    long misses() {
        return sum(1);
    }

    private long sum(int i) {
        long[] n = new long[1];
        lookups.forEach(c -> n[0] += c.get(i));
        return n[0];
    }

    /**
     * What a ClientHello's body (from its version on, as Netty's SNI handler hands it) offers to resume with: a
     * session ID ({@link #SESSION_ID}), a ticket ({@link #TICKET}: a session_ticket extension that is not empty).
     * Read in place; 0 for what is cut or not a ClientHello.
     */
    static int offer(ByteBuf hello) {
        if (hello == null) {
            return 0;
        }
        int at = hello.readerIndex() + 34; // version, random
        int offer = at < hello.writerIndex() && hello.getUnsignedByte(at) > 0 ? SESSION_ID : 0;
        int ticket = HelloFetches.bodyExtension(hello, SESSION_TICKET_EXTENSION);
        return ticket >= 0 && hello.getUnsignedShort(hello.readerIndex() + ticket + 2) > 0 ? offer | TICKET : offer;
    }
}
