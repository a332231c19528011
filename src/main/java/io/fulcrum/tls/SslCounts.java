package io.fulcrum.tls;

import io.fulcrum.stats.Counters;
import io.fulcrum.stats.Counters.Count;
import io.netty.channel.Channel;

/**
 * The counts of HAProxy's ssl stats module ({@code show stat}'s ssl_sess, ssl_reused_sess and ssl_failed_handshake):
 * each handshake that ended, on the client side in its frontend (and listener), on the server side in its server and
 * backend, as HAProxy's ssl_sock_handshake() counts them.
 */
public final class SslCounts {
    private SslCounts() {
    }

    /**
     * The handshake of {@code ch} ended: a new session, or a resumed one, when it succeeded, else a failed handshake;
     * counted in each of {@code counters} (null ones left out).
     */
    public static void ended(Channel ch, boolean success, Counters... counters) {
        TlsConnection t = success ? TlsConnection.of(ch) : null;
        Count c = !success ? Count.SSL_FAILED_HANDSHAKES : t != null && t.resumed ? Count.SSL_REUSED_SESSIONS : Count.SSL_SESSIONS;
        for (Counters x : counters) {
            if (x != null) {
                x.increment(c);
            }
        }
    }
}
