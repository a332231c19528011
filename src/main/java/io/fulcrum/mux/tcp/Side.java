package io.fulcrum.mux.tcp;

/** The two sides of a session. */
enum Side {
    CLIENT, SERVER;

    Side other() {
        return this == CLIENT ? SERVER : CLIENT;
    }
}
