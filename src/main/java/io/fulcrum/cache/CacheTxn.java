package io.fulcrum.cache;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * What a transaction knows of the caches: the request's key and whether it may be answered or stored (set by
 * {@code cache-use}), the entry that answers it, and the response being stored ({@code cache-store}). The stream
 * calls it on its way; it lives on the stream's event loop.
 */
public final class CacheTxn {
    private CacheKey key;
    /** The request may not be answered from a cache, nor its response stored. */
    private boolean bypass;
    /** Its response may not be stored unless it says "public" (Authorization, no-store). */
    private boolean noStore;
    /** The request's Vary fields, kept when it missed a cache that processes Vary. */
    private VaryKey requestVary;
    private CacheEntry hit;
    private HttpCache hitCache;
    private boolean notModified;
    private CacheWriter writer;

    /** {@link #use}: the request was not looked up, it was and missed, it was found. */
    static final int SKIPPED = 0;
    static final int MISSED = 1;
    static final int HIT = 2;

    /** {@code http-request cache-use}: looks the request up in {@code cache}; {@link #SKIPPED}, {@link #MISSED} or {@link #HIT}. */
    int use(HttpCache cache, RequestHead request) {
        key = CacheKey.of(request); // (for every method: a successful unsafe one invalidates the entry)
        bypass |= Freshness.bypasses(request);
        noStore |= Freshness.forbidsStore(request);
        if (key == null || bypass || hitCache != null) {
            return SKIPPED;
        }
        hit = cache.lookup(key, request, HttpCache.now());
        if (hit != null) {
            hitCache = cache;
            notModified = hit.notModified(request);
            return HIT;
        }
        if (cache.config.processVary) {
            requestVary = VaryKey.of(request, VaryKey.ACCEPT_ENCODING | VaryKey.REFERER);
        }
        return MISSED;
    }

    /** {@code http-response cache-store}: starts storing {@code response} in {@code cache} when it may be. */
    void store(HttpCache cache, RequestHead request, ResponseHead response) {
        if (hitCache != null || writer != null || request.version() < 11) {
            return;
        }
        if (!request.method().contentEquals("GET")) {
            if (key != null && response.status() >= 200 && response.status() < 400 && unsafe(request)) {
                cache.invalidate(key);
            }
            return;
        }
        if (key == null || response.status() != 200) {
            return;
        }
        VaryKey vary = varyKey(cache, response);
        if (vary == null || !Freshness.storable(response, !noStore)) {
            return;
        }
        long now = HttpCache.now();
        long lifetime = Freshness.lifetime(response.headers(), now);
        if (lifetime == -2) {
            return;
        }
        long age = 0;
        int i = response.headers().indexOf("age", 0);
        if (i >= 0) {
            age = Freshness.age(response.headers().value(i));
            if (age <= 0 || age > Math.max(lifetime, 0)) {
                return; // unreadable, or stale already: not stored (and the Age goes on to the client)
            }
            response.headers().removeAll("age"); // (as HAProxy: the client of this response does not get it either)
        }
        long kept = lifetime >= 0 ? Math.min(lifetime, cache.config.maxAge) : cache.config.maxAge;
        CacheWriter w = new CacheWriter(cache, key, vary, response, now, now + kept, age);
        long length = response.bodyLength();
        if (w.fits(length > 0 ? length : 0)) {
            writer = w;
        }
    }

    /** The key of a response's variant, {@link VaryKey#NONE} when it does not vary, null when it cannot be stored. */
    private VaryKey varyKey(HttpCache cache, ResponseHead response) {
        if (!cache.config.processVary) {
            return response.headers().contains("vary") ? null : VaryKey.NONE;
        }
        int signature = VaryKey.signature(response.headers());
        if (signature <= 0) {
            return signature == 0 ? VaryKey.NONE : null;
        }
        return requestVary == null ? null : requestVary.reduced(signature).stored(response.headers());
    }

    private static boolean unsafe(RequestHead r) {
        String m = r.method().toString();
        return !(m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS") || m.equals("TRACE"));
    }

    // --- answering from the cache -------------------------------------------------------------

    /** True when the request is answered from a cache. */
    public boolean hit() {
        return hitCache != null;
    }

    /** The name of the cache that answers, or null. */
    public String servedBy() {
        return hitCache == null ? null : hitCache.name();
    }

    /** The head of the answer from the cache (304 to a conditional request it satisfies; no body to a HEAD). */
    public ResponseHead answerHead(RequestHead request) {
        return hit.head(HttpCache.now(), notModified, request.isHead());
    }

    /** The body of the answer from the cache (the caller owns it), or null when the answer has none. */
    public ByteBuf answerBody(ResponseHead answer) {
        return answer.bodyLength() == HttpHead.NO_BODY ? null : hit.body();
    }

    // --- storing the response ----------------------------------------------------------------------

    /** Body bytes of the response, on their way to the client (the caller keeps {@code data}). */
    public void responseData(ByteBuf data, ByteBufAllocator alloc) {
        if (writer != null && !writer.add(data, alloc)) {
            writer = null;
        }
    }

    /** The response ended: stored if it was being stored. */
    public void responseEnd() {
        if (writer != null) {
            writer.finish();
            writer = null;
        }
    }

    /** The response will not be stored after all (it has trailers, or it was cut short). */
    public void cancelStore() {
        if (writer != null) {
            writer.abort();
            writer = null;
        }
    }

    /** The transaction is over: what it holds goes back. */
    public void release() {
        cancelStore();
        if (hit != null) {
            hit.release();
            hit = null;
        }
    }
}
