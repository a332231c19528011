package io.fulcrum.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Field handles for the lock-free code of the data path (an atomic field costs no object of its own). */
public final class VarHandles {
    private VarHandles() {
    }

    /** The handle of field {@code name} of {@code owner}, which {@code lookup} (the owner's own) can reach. */
    public static VarHandle field(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
