package io.fulcrum.runtime;

import io.fulcrum.stats.PerLoop;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The buffer allocator of one kind of connection (its channels' {@code ChannelOption.ALLOCATOR}): Netty's
 * default one, counting the buffers it hands out, direct and heap apart, for {@code debug dev memstats}. Every
 * buffer the channel's pipeline takes goes through it (reads, encoders, the TLS engine's); a buffer that grows
 * later does so through Netty's allocator, uncounted, and releases are not seen (a buffer is not wrapped).
 * Counting costs two uncontended atomic additions in the allocating loop's own cell.
 */
public final class BufferOwner implements ByteBufAllocator {
    /** Accepted connections of frontends in mode http, then tcp; server connections; health checks; stats sockets. */
    public static final BufferOwner FRONTEND_HTTP = new BufferOwner("frontend http conns");
    public static final BufferOwner FRONTEND_TCP = new BufferOwner("frontend tcp conns");
    public static final BufferOwner SERVER = new BufferOwner("server conns");
    public static final BufferOwner CHECK = new BufferOwner("health checks");
    public static final BufferOwner CLI = new BufferOwner("stats sockets");
    static final List<BufferOwner> ALL = List.of(FRONTEND_HTTP, FRONTEND_TCP, SERVER, CHECK, CLI);

    /** Cell slots: calls and bytes of direct buffers, then of heap ones. */
    static final int DIRECT = 0;
    static final int HEAP = 2;

    final String name;
    private final PerLoop<AtomicLongArray> counts = new PerLoop<>(() -> new AtomicLongArray(4));

    private BufferOwner(String name) {
        this.name = name;
    }

    private ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    private <B extends ByteBuf> B count(B b) {
        AtomicLongArray c = counts.mine();
        int at = b.isDirect() ? DIRECT : HEAP;
        c.getAndIncrement(at);
        c.getAndAdd(at + 1, b.capacity());
        return b;
    }

    /** Calls (slot {@code at}) or bytes ({@code at + 1}) summed over the loops. */
    long total(int slot) {
        long[] sum = {0};
        counts.forEach(c -> sum[0] += c.get(slot));
        return sum[0];
    }

    void reset() {
        counts.forEach(c -> {
            for (int i = 0; i < c.length(); i++) {
                c.set(i, 0);
            }
        });
    }

    @Override
    public ByteBuf buffer() {
        return count(alloc().buffer());
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return count(alloc().buffer(initialCapacity));
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return count(alloc().buffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf ioBuffer() {
        return count(alloc().ioBuffer());
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return count(alloc().ioBuffer(initialCapacity));
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return count(alloc().ioBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf heapBuffer() {
        return count(alloc().heapBuffer());
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return count(alloc().heapBuffer(initialCapacity));
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        return count(alloc().heapBuffer(initialCapacity, maxCapacity));
    }

    @Override
    public ByteBuf directBuffer() {
        return count(alloc().directBuffer());
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return count(alloc().directBuffer(initialCapacity));
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        return count(alloc().directBuffer(initialCapacity, maxCapacity));
    }

    // A composite holds no memory of its own: its components are counted when they are allocated.
    @Override
    public CompositeByteBuf compositeBuffer() {
        return alloc().compositeBuffer();
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return alloc().compositeBuffer(maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return alloc().compositeHeapBuffer();
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return alloc().compositeHeapBuffer(maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return alloc().compositeDirectBuffer();
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return alloc().compositeDirectBuffer(maxNumComponents);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return alloc().isDirectBufferPooled();
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        return alloc().calculateNewCapacity(minNewCapacity, maxCapacity);
    }
}
