package io.fulcrum.backend;

import io.fulcrum.server.Server;

/** Picks the server for a new connection. Called from every event loop at once. */
public interface LoadBalancer {

    /** The next server, or null when none is usable. */
    Server pick();
}
