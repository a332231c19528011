package io.fulcrum.backend;

import io.fulcrum.sample.SampleContext;

/**
 * A {@code balance} algorithm. {@link #plan} runs on whatever thread changed a server, under the backend's
 * plan lock, and publishes an immutable result; {@link #pick} runs on every event loop at once and takes no
 * lock.
 */
interface Balancer {

    /** Prepares picks over {@code farm}. */
    void plan(Farm farm);

    /**
     * The server for the stream of {@code ctx}, preferably not {@code avoid} (the one a retry leaves);
     * null when every server is full (the stream waits in the backend's queue). Hashing algorithms return
     * their server even when it is full: the stream waits in that server's queue.
     */
    Member pick(SampleContext ctx, Member avoid);
}
