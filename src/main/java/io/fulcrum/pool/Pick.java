package io.fulcrum.pool;

/** Which idle connections a request may use (HAProxy's table in connect_server()). */
public enum Pick {
    /** None: a new connection. */
    NONE,
    /** Only safe ones (a first request under {@code http-reuse aggressive}). */
    SAFE,
    /** Safe ones first, then idle ones (a first request under {@code http-reuse always}). */
    SAFE_FIRST,
    /** Idle ones first, then safe ones (any later request, which the client can retry). */
    ANY
}
