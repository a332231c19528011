package io.fulcrum.runtime;

/**
 * {@code -m <megabytes>}: HAProxy limits its address space (RLIMIT_AS) so that its allocations fail beyond it, which
 * refuses connections or slows them. A JVM reserves far more address space than it uses (heap, code cache, thread
 * stacks): the same limit would stop it from starting. What grows with the traffic here is Netty's direct memory (the
 * buffers of the data path, show info's PoolAlloc), so that is what the limit caps: past it, allocating a buffer fails
 * and the connection that needed it is closed. The heap keeps the JVM's own limit ({@code -Xmx} in FULCRUM_JAVA_OPTS).
 */
public final class MemoryLimit {
    private MemoryLimit() {
    }

    /** Caps Netty's direct memory; must run before any Netty buffer class is loaded (Netty reads it once). */
    public static void apply(long megabytes) {
        if (megabytes > 0) {
            System.setProperty("io.netty.maxDirectMemory", Long.toString(megabytes << 20));
        }
    }
}
