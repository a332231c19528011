package io.fulcrum.runtime;

import io.fulcrum.stats.RateCounter;

/**
 * The process-wide rates of accepted connections and their limits: HAProxy's {@code maxconnrate},
 * {@code maxsessrate} and {@code maxsslrate}, which {@code set rate-limit ... global} changes at run time. A
 * listener of a frontend asks {@link #delay} before each accept and stops reading its socket while a limit is
 * reached (new connections wait in the kernel's backlog), as HAProxy's listeners do. The stats sockets are not
 * limited, as in HAProxy.
 */
public final class AcceptRate {
    /** For a frontend's {@code rate-limit sessions}: the process's limits, which apply too; null for the process's own. */
    private final AcceptRate process;
    private final RateCounter connections = new RateCounter();
    private final RateCounter tls = new RateCounter();
    private volatile int connLimit;
    private volatile int sessLimit;
    private volatile int tlsLimit;

    public AcceptRate() {
        this(null);
    }

    private AcceptRate(AcceptRate process) {
        this.process = process;
    }

    /** The limits of a frontend accepting at most {@code sessions} a second, on top of these (the process's). */
    public AcceptRate frontend(int sessions) {
        AcceptRate r = new AcceptRate(this);
        r.sessLimit = sessions;
        return r;
    }

    /**
     * Milliseconds to wait before accepting a connection, 0 to accept it now. A session is a connection here
     * (Fulcrum makes one of each accepted connection), so both limits apply to the same rate.
     */
    public long delay(boolean secure) {
        int limit = connLimit == 0 ? sessLimit : sessLimit == 0 ? connLimit : Math.min(connLimit, sessLimit);
        if (limit > 0 && connections.reached(limit)) {
            return Math.max(1, 1000 / limit);
        }
        if (secure && tlsLimit > 0 && tls.reached(tlsLimit)) {
            return Math.max(1, 1000 / tlsLimit);
        }
        return process == null ? 0 : process.delay(secure);
    }

    /** Counts an accepted connection. */
    public void accepted(boolean secure) {
        connections.add();
        if (secure) {
            tls.add();
        }
        if (process != null) {
            process.accepted(secure);
        }
    }

    /** TLS connections accepted: {@code SslRate}, {@code MaxSslRate}. */
    public RateCounter tls() {
        return tls;
    }

    public int connLimit() {
        return connLimit;
    }

    public int sessLimit() {
        return sessLimit;
    }

    public int tlsLimit() {
        return tlsLimit;
    }

    public void connLimit(int v) {
        connLimit = v;
    }

    public void sessLimit(int v) {
        sessLimit = v;
    }

    public void tlsLimit(int v) {
        tlsLimit = v;
    }
}
