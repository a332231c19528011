package io.fulcrum.proxy;

/**
 * A proxy's timeouts in milliseconds; 0 means "not set" (no timeout), as in HAProxy. Mutable while the
 * section is parsed; a proxy copies its defaults section's timeouts when it is declared.
 */
public final class Timeouts {
    public long connect;
    public long client;
    public long server;
    public long tunnel;
    public long clientFin;
    public long serverFin;
    public long queue;
    /** Time to receive a complete request head ({@code timeout http-request}). */
    public long httpRequest;
    /** Idle time allowed between two requests of a connection ({@code timeout http-keep-alive}). */
    public long httpKeepAlive;
    /** How long a tarpitted request is held ({@code timeout tarpit}); 0: {@code timeout connect}'s value. */
    public long tarpit;
    /**
     * {@code option independent-streams}: the bytes sent to this proxy's side (the clients for a frontend, the servers
     * for a backend) no longer count as its activity: only what it sends does, and the progress of what waits for it.
     */
    public boolean independentStreams;

    public Timeouts copy() {
        Timeouts t = new Timeouts();
        t.connect = connect;
        t.client = client;
        t.server = server;
        t.tunnel = tunnel;
        t.clientFin = clientFin;
        t.serverFin = serverFin;
        t.queue = queue;
        t.httpRequest = httpRequest;
        t.httpKeepAlive = httpKeepAlive;
        t.tarpit = tarpit;
        t.independentStreams = independentStreams;
        return t;
    }
}
