package io.fulcrum.pool;

/** {@code http-reuse}: which requests may travel over an idle connection another session opened. */
public enum ReuseMode {
    /** Connections are never shared: a client connection keeps its own server connection. */
    NEVER,
    /** A client connection's first request gets a new connection; the next ones may use idle ones. */
    SAFE,
    /** As safe, except first requests may use idle connections that have already carried more than one request. */
    AGGRESSIVE,
    /** Any request may use any idle connection, safe ones first for a first request. */
    ALWAYS;

    /**
     * The idle connections a request may use: a request that is not its client connection's first (or that
     * {@code retry-on} would send again if the connection failed) may take any one, since the client could retry it.
     */
    public Pick pick(boolean retryable) {
        if (this == NEVER) {
            return Pick.NONE;
        }
        if (retryable) {
            return Pick.ANY;
        }
        return switch (this) {
            case AGGRESSIVE -> Pick.SAFE;
            case ALWAYS -> Pick.SAFE_FIRST;
            default -> Pick.NONE;
        };
    }
}
