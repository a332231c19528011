package io.fulcrum.stats;

import io.fulcrum.runtime.EventLoops;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One cell per event loop for a statistic that every transaction updates. Why: counters shared by the loops
 * bounce their cache line between cores on each update; with a cell per loop each loop writes only its own,
 * and the readers (stats, CLI), rare, combine the cells. A cell is made by its loop on first use, in that
 * loop's allocation buffer, away from the other loops' cells. Threads off the loops share the first loop's
 * cell, so cells are still updated with atomic operations, uncontended in practice.
 */
final class PerLoop<C> {
    /** Cells at most; more loops share them (index modulo). */
    private static final int SLOTS = 64;

    private final AtomicReferenceArray<C> cells = new AtomicReferenceArray<>(SLOTS);
    private final Supplier<C> factory;

    PerLoop(Supplier<C> factory) {
        this.factory = factory;
    }

    /** The calling loop's cell. */
    C mine() {
        int i = EventLoops.threadIndex() & SLOTS - 1;
        C c = cells.getAcquire(i);
        if (c == null) {
            C made = factory.get();
            C won = cells.compareAndExchange(i, null, made);
            c = won == null ? made : won;
        }
        return c;
    }

    /** Each cell made so far. */
    void forEach(Consumer<C> action) {
        for (int i = 0; i < SLOTS; i++) {
            C c = cells.getAcquire(i);
            if (c != null) {
                action.accept(c);
            }
        }
    }
}
