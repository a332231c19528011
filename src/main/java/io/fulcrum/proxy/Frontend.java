package io.fulcrum.proxy;

import io.fulcrum.backend.Backend;
import io.fulcrum.conn.SocketOptions;
import io.fulcrum.http.ErrorSet;
import io.fulcrum.http.HttpModule;
import io.fulcrum.http.HttpOptions;
import io.fulcrum.runtime.ConnLimit;

/** A frontend (or the frontend half of a listen section) at run time. */
public final class Frontend {
    private final String name;
    private final Timeouts timeouts;
    private final SocketOptions socket;
    private final ConnLimit limit;
    private final Backend backend;
    private final Mode mode;
    private final HttpOptions http;
    private final HttpOptions.ConnectionMode connectionMode;
    private final ErrorSet errors;
    private final int id;
    private final String defaultBackend;

    /**
     * @param backend where its connections go: the first unconditional {@code use_backend}, else
     *                {@code default_backend}, else its own backend half (listen), else none
     */
    public Frontend(ProxySpec spec, int maxconn, Backend backend) {
        this.name = spec.name();
        this.id = spec.id;
        this.defaultBackend = spec.defaultBackend == null ? null : spec.defaultBackend.name();
        this.timeouts = spec.timeouts.copy();
        this.socket = spec.part(SocketOptions.class, SocketOptions::new);
        this.limit = new ConnLimit(maxconn);
        this.backend = backend;
        this.mode = spec.mode;
        this.http = HttpModule.of(spec);
        this.errors = ErrorSet.of(spec);
        this.connectionMode = backend == null ? http.connectionMode
                : HttpOptions.combine(http.connectionMode, backend.httpOptions().connectionMode);
    }

    public Mode mode() {
        return mode;
    }

    public HttpOptions httpOptions() {
        return http;
    }

    /** The responses it sends for errors found before a backend is chosen. */
    public ErrorSet errors() {
        return errors;
    }

    /** Client connections may carry several transactions (not {@code option httpclose}). */
    public boolean keepAlive() {
        return connectionMode != HttpOptions.ConnectionMode.CLOSE;
    }

    /** Server connections may carry several transactions (neither httpclose nor http-server-close). */
    public boolean keepAliveServer() {
        return connectionMode == HttpOptions.ConnectionMode.KEEP_ALIVE;
    }

    public String name() {
        return name;
    }

    /** HAProxy's numeric id of the proxy ({@link ProxySpec#id}). */
    public int numericId() {
        return id;
    }

    /** The backend named by {@code default_backend}, or null. */
    public String defaultBackendName() {
        return defaultBackend;
    }

    public Timeouts timeouts() {
        return timeouts;
    }

    public SocketOptions socketOptions() {
        return socket;
    }

    public ConnLimit limit() {
        return limit;
    }

    /** The backend its connections go to, or null. */
    public Backend backend() {
        return backend;
    }
}
