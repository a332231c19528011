package io.fulcrum.stats;

import io.fulcrum.runtime.EventLoops;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One cell per event loop for a statistic that every transaction updates. Why: counters shared by the loops
 * bounce their cache line between cores on each update; with a cell per loop each loop writes only its own,
 * and the readers (stats, CLI), rare, combine the cells. A cell is made by its loop on first use, in that
 * loop's allocation buffer, away from the other loops' cells. Threads off the loops share the first loop's
 * cell ({@link #mine}), so such cells are updated with atomic operations, uncontended in practice; a statistic that
 * keeps those threads apart ({@link #mineOnLoop}, as {@link Counters}) has cells that only their loop writes.
 */
public final class PerLoop<C> {
    /** Cells at most; more loops share them (index modulo). */
    public static final int SLOTS = 64;

    private final AtomicReferenceArray<C> cells = new AtomicReferenceArray<>(SLOTS);
    private final Supplier<C> factory;
    /** One past the highest index of a cell made so far: readers look no further. */
    private volatile int width;
    private static final VarHandle WIDTH;

    static {
        try {
            WIDTH = MethodHandles.lookup().findVarHandle(PerLoop.class, "width", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public PerLoop(Supplier<C> factory) {
        this.factory = factory;
    }

    /** The calling loop's cell. */
    public C mine() {
        return cell(EventLoops.threadIndex() & SLOTS - 1);
    }

    /** The calling loop's cell, null off the loops: a cell only its loop writes. */
    public C mineOnLoop() {
        int i = EventLoops.loopIndex();
        return i < 0 ? null : cell(i & SLOTS - 1);
    }

    private C cell(int i) {
        C c = cells.getAcquire(i);
        return c != null ? c : make(i);
    }

    private C make(int i) {
        C made = factory.get();
        C won = cells.compareAndExchange(i, null, made);
        int w;
        while ((w = width) <= i && !WIDTH.compareAndSet(this, w, i + 1)) {
            Thread.onSpinWait(); // (once per loop and statistic: width only grows)
        }
        return won == null ? made : won;
    }

    /** One past the highest thread index that has a cell: {@link #at} is null from there on. */
    public int width() {
        return width;
    }

    /** The cell of the loop of thread index {@code loop}, null when that loop made none. */
    public C at(int loop) {
        return cells.getAcquire(loop & SLOTS - 1);
    }

    /** Each cell made so far. */
    public void forEach(Consumer<C> action) {
        for (int i = 0, n = width; i < n; i++) {
            C c = cells.getAcquire(i);
            if (c != null) {
                action.accept(c);
            }
        }
    }
}
