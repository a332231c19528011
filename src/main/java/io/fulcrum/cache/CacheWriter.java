package io.fulcrum.cache;

import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

/**
 * A response on its way into a cache: its head as {@code cache-store} saw it, then a copy of its body as it goes to
 * the client (never holding it back). Past {@code max-object-size}, or if the response does not end well, nothing
 * is stored. Owned by one transaction, on its event loop.
 */
final class CacheWriter {
    private static final int FIRST_BUFFER = 4096;

    final HttpCache cache;
    final CacheKey key;
    final VaryKey vary;
    /** A copy of the head: later rules change the one sent, not this one. */
    final ResponseHead head;
    final long stored;
    final long expire;
    final long originAge;
    /** The body may take this much. */
    private final long room;
    private ByteBuf body;

    CacheWriter(HttpCache cache, CacheKey key, VaryKey vary, ResponseHead response, long now, long expire, long originAge) {
        this.cache = cache;
        this.key = key;
        this.vary = vary;
        this.head = new ResponseHead(response.version(), response.status(), response.reason(), CacheEntry.copy(response.headers()));
        this.stored = now;
        this.expire = expire;
        this.originAge = originAge;
        this.room = cache.config.maxObjectSize - head.htxSize();
    }

    /** True when a head and {@code length} bytes of body fit in {@code max-object-size}. */
    boolean fits(long length) {
        return length <= room;
    }

    /** Copies body bytes (the caller keeps {@code data}); false once the object no longer fits (then nothing is kept). */
    boolean add(ByteBuf data, ByteBufAllocator alloc) {
        int n = data.readableBytes();
        long have = body == null ? 0 : body.readableBytes();
        if (!fits(have + n)) {
            abort();
            return false;
        }
        if (body == null) {
            body = alloc.directBuffer((int) Math.min(room, Math.max(n, FIRST_BUFFER)), (int) room);
        }
        body.writeBytes(data, data.readerIndex(), n);
        return true;
    }

    /** The response ended: it is stored. */
    void finish() {
        ByteBuf b = body != null ? body : Unpooled.EMPTY_BUFFER;
        body = null;
        cache.insert(new CacheEntry(this, b, cache.nextSequence()));
    }

    /** Nothing is stored. */
    void abort() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
