package io.fulcrum.runtime;

/**
 * Netty's buffer pool settings that differ from Netty's defaults for a proxy's traffic; a {@code -D} given in
 * {@code FULCRUM_JAVA_OPTS} wins.
 * <p>
 * The reads of a large body are 64 KB buffers, which Netty's adaptive allocator carves from chunks of their own and
 * keeps, once empty, in a cache of {@code 2 x cores} chunks. A proxy holds such buffers until the slower side has
 * taken them, so that many chunks empty at once when the clients catch up: all but a few were freed and allocated
 * again (a new chunk's memory zeroed) moments later. With 16 downloads of 1 MiB on 2 cores that was 40% of the
 * loops' user time (bench h1-large rig, perf, 2026-12-03); a cache of 32 chunks ended it at 16 connections, of 64
 * at 64 connections, for 12 MB more pooled memory after the load (34 MB instead of 22). Chunks left unused are
 * still purged by Netty.
 */
public final class BufferPoolDefaults {
    static final String CHUNK_REUSE = "io.netty.allocator.chunkReuseQueueCapacity";
    static final int CHUNKS_KEPT = 64;

    private BufferPoolDefaults() {
    }

    /** Must run before any Netty buffer class is loaded (Netty reads these once). */
    public static void apply() {
        if (System.getProperty(CHUNK_REUSE) == null) {
            System.setProperty(CHUNK_REUSE, Integer.toString(CHUNKS_KEPT));
        }
    }
}
