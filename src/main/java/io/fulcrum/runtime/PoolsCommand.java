package io.fulcrum.runtime;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code show pools} (management.txt 9.3) in HAProxy 2.6's layout. Fulcrum's pools are its buffer allocator's:
 * each arena of Netty's pooled allocator (objects are its chunks), or, with the adaptive allocator, its direct
 * and heap memory as one area each; then the JVM's own buffer pools (direct and mapped byte buffers).
 */
final class PoolsCommand {
    private PoolsCommand() {
    }

    /** One pool: {@code count} objects of {@code size} bytes, {@code used} of them in use. */
    private record Pool(String name, long size, long count, long bytes, long used, long usedBytes, int users, Object owner) {
    }

    static void register(CliCommands c) {
        c.add("show pools", "show pools", "report information about the memory pools usage", CliLevel.USER, PoolsCommand::show);
    }

    private static void show(CliRequest r) {
        List<Pool> pools = pools(ByteBufAllocator.DEFAULT, r.process().loops().activities().size());
        StringBuilder b = new StringBuilder("Dumping pools usage. Use SIGQUIT to flush them.\n");
        long bytes = 0;
        long used = 0;
        for (Pool p : pools) {
            b.append("  - Pool ").append(p.name()).append(" (").append(p.size()).append(" bytes) : ").append(p.count())
                    .append(" allocated (").append(p.bytes()).append(" bytes), ").append(p.used())
                    .append(" used (~0 by thread caches), needed_avg ").append(p.used()).append(", 0 failures, ").append(p.users())
                    .append(" users, @0x").append(Integer.toHexString(System.identityHashCode(p.owner()))).append(" [SHARED]\n");
            bytes += p.bytes();
            used += p.usedBytes();
        }
        b.append("Total: ").append(pools.size()).append(" pools, ").append(bytes).append(" bytes allocated, ").append(used)
                .append(" used (~0 by thread caches).\n");
        r.print(b);
    }

    private static List<Pool> pools(ByteBufAllocator alloc, int threads) {
        List<Pool> pools = new ArrayList<>();
        if (alloc instanceof PooledByteBufAllocator pooled) {
            int chunk = pooled.metric().chunkSize();
            arenas(pools, "dir_arena", pooled.metric().directArenas(), chunk);
            arenas(pools, "heap_arena", pooled.metric().heapArenas(), chunk);
        } else if (alloc instanceof ByteBufAllocatorMetricProvider p) {
            ByteBufAllocatorMetric m = p.metric();
            pools.add(area("buf_direct", m.usedDirectMemory(), threads, m));
            pools.add(area("buf_heap", m.usedHeapMemory(), threads, alloc));
        }
        for (BufferPoolMXBean jvm : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (jvm.getName().equals("direct") || jvm.getName().equals("mapped")) {
                long n = jvm.getCount();
                long cap = jvm.getTotalCapacity();
                pools.add(new Pool("jvm_" + jvm.getName(), n > 0 ? cap / n : 0, n, cap, n, Math.min(cap, jvm.getMemoryUsed()), 1, jvm));
            }
        }
        return pools;
    }

    /** Memory the allocator holds without telling its objects: one area of that size. */
    private static Pool area(String name, long bytes, int threads, Object owner) {
        long n = bytes > 0 ? 1 : 0;
        return new Pool(name, bytes, n, bytes, n, bytes, threads, owner);
    }

    private static void arenas(List<Pool> pools, String prefix, List<PoolArenaMetric> arenas, int chunk) {
        for (int i = 0; i < arenas.size(); i++) {
            PoolArenaMetric a = arenas.get(i);
            long chunks = a.numActiveChunks();
            pools.add(new Pool(prefix + i, chunk, chunks, chunks * chunk, chunks, a.numActiveBytes(), a.numThreadCaches(), a));
        }
    }
}
