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

    /**
     * The first server of {@code turns} from {@code start} on, in a circle, that is not full, preferably not
     * {@code avoid} (returned when it is the only one left); null when every one is full.
     */
    static Member firstFree(Member[] turns, int start, Member avoid) {
        int n = turns.length;
        Member avoided = null;
        for (int i = 0; i < n; i++) {
            Member m = turns[(start + i) % n];
            if (m.full()) {
                continue;
            }
            if (m != avoid) {
                return m;
            }
            avoided = m;
        }
        return avoided;
    }

    /** The greatest common divisor of the weights (0 when all are 0): plans divide weights by it. */
    static int gcd(int[] weights) {
        int g = 0;
        for (int w : weights) {
            int b = w;
            while (b != 0) {
                int t = g % b;
                g = b;
                b = t;
            }
        }
        return g;
    }
}
