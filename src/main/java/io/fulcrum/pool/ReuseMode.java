package io.fulcrum.pool;

/** {@code http-reuse}: which requests may travel over an idle connection another session opened. */
public enum ReuseMode {
    /** Connections are never shared: a client connection keeps its own server connection. */
    NEVER,
    /** A client connection's first request gets a new connection; the next ones may use idle ones. */
    SAFE,
    /** As safe, except first requests may use idle connections that have already carried a request. */
    AGGRESSIVE,
    /** Any request may use any idle connection. */
    ALWAYS
}
