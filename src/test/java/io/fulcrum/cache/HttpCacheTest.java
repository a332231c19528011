package io.fulcrum.cache;

import io.fulcrum.cfg.Source;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static io.fulcrum.cache.CacheRulesTest.request;
import static io.fulcrum.cache.CacheRulesTest.response;
import static org.assertj.core.api.Assertions.assertThat;

/** The store: lookups, replacement, eviction of the oldest, expiry, and the references that keep a body readable. */
class HttpCacheTest {

    private static HttpCache cache(int megabytes) {
        CacheSection s = new CacheSection("c", new Source("t.cfg", 1));
        s.maxBlocks = megabytes * 1024L;
        s.maxObjectSize = s.maxBlocks * CacheSection.BLOCK_SIZE / 2;
        return new HttpCache(s);
    }

    /** Stores a response of {@code size} body bytes for {@code request}; returns the writer's key. */
    private static CacheKey store(HttpCache cache, RequestHead request, int size, long expire) {
        CacheKey key = CacheKey.of(request);
        ResponseHead head = response(200, "Cache-Control: max-age=60", "Content-Length: " + size);
        CacheWriter w = new CacheWriter(cache, key, VaryKey.NONE, head, HttpCache.now(), expire, 0);
        ByteBuf data = Unpooled.wrappedBuffer(new byte[size]);
        assertThat(w.add(data, ByteBufAllocator.DEFAULT)).isTrue();
        data.release();
        w.finish();
        return key;
    }

    private static RequestHead get(String host) {
        return request("GET", 11, "Host: " + host);
    }

    @Test
    void theOldestIsEvictedFirstAndAReaderKeepsItsBody() {
        HttpCache cache = cache(1);
        long later = HttpCache.now() + 60;
        CacheKey a = store(cache, get("a"), 400_000, later);
        CacheEntry reading = cache.lookup(a, get("a"), HttpCache.now());
        assertThat(reading).isNotNull();
        ByteBuf body = reading.body();
        store(cache, get("b"), 400_000, later);
        store(cache, get("c"), 400_000, later);
        assertThat(cache.lookup(a, get("a"), HttpCache.now())).as("evicted").isNull();
        assertThat(body.readableBytes()).isEqualTo(400_000);
        reading.release();
        assertThat(body.refCnt()).isEqualTo(1);
        body.release();
        assertThat(body.refCnt()).isZero();
        CacheEntry c = cache.lookup(CacheKey.of(get("c")), get("c"), HttpCache.now());
        assertThat(c).isNotNull();
        c.release();
        cache.invalidate(CacheKey.of(get("b")));
        cache.invalidate(CacheKey.of(get("c")));
    }

    @Test
    void aNewResponseReplacesTheStoredOneAndExpiredOnesAreNotServed() {
        HttpCache cache = cache(1);
        long now = HttpCache.now();
        CacheKey k = store(cache, get("a"), 10, now + 60);
        store(cache, get("a"), 20, now + 60);
        CacheEntry e = cache.lookup(k, get("a"), now);
        assertThat(e.body()).satisfies(b -> {
            assertThat(b.readableBytes()).isEqualTo(20);
            b.release();
        });
        e.release();
        store(cache, get("a"), 30, now);
        assertThat(cache.lookup(k, get("a"), now)).isNull();
        StringBuilder show = new StringBuilder();
        cache.show(show);
        assertThat(show.toString()).matches("0x[0-9a-f]+: c \\(shctx:0x[0-9a-f]+, available blocks:1024\\)\n");
    }

    @Test
    void tooLargeBodiesAreDropped() {
        HttpCache cache = cache(1);
        ResponseHead head = response(200, "Cache-Control: max-age=60");
        CacheWriter w = new CacheWriter(cache, CacheKey.of(get("a")), VaryKey.NONE, head, 0, 60, 0);
        ByteBuf data = Unpooled.wrappedBuffer(new byte[300_000]);
        assertThat(w.add(data, ByteBufAllocator.DEFAULT)).isTrue();
        assertThat(w.add(data, ByteBufAllocator.DEFAULT)).as("beyond half the cache").isFalse();
        data.release();
    }

    @Test
    void keysAreHashedAsHaproxyHashesThem() {
        // sha1("https://127.0.0.1:43957/a?h=Cache-Control:max-age%3D30"), whose first 32 bits haproxy printed as 1522072649
        RequestHead r = new RequestHead(new io.netty.util.AsciiString("GET"), new io.netty.util.AsciiString("/a?h=Cache-Control:max-age%3D30"),
                11, CacheRulesTest.headers("Host: 127.0.0.1:43957"));
        assertThat(CacheKey.of(r).first32()).isEqualTo(1522072649L);
        assertThat(CacheKey.of(request("GET", 11))).as("no Host").isNull();
    }
}
