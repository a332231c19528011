package io.fulcrum.cache;

import io.fulcrum.http.HeaderValues;
import io.fulcrum.http.HttpHead;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One stored response, never changed once stored: any event loop may serve it. Its body is one buffer the entry
 * holds a reference to; a transaction serving it takes a reference of its own first ({@link #tryRetain}), so that an
 * entry dropped meanwhile (evicted, replaced, expired) frees its buffer only once the last reader is done.
 */
final class CacheEntry {
    /** The Age HAProxy announces at most (2^31 s). */
    private static final long MAX_AGE = 2147483648L;
    private static final AsciiString NOT_MODIFIED = AsciiString.cached("Not Modified");

    final CacheKey key;
    final VaryKey vary;
    /** Its place in the order of storage: the oldest are evicted first. */
    final long seq;
    final int status;
    private final AsciiString reason;
    /** The fields as stored (the Age the server sent left out): each answer gets a copy. */
    private final HttpHeaders headers;
    private final ByteBuf body;
    /** The stored response had no Content-Length: it is sent in chunks. */
    private final boolean chunked;
    /** When it stops being fresh, in seconds since the epoch. */
    final long expire;
    /** When it was stored, and the age the server announced then. */
    private final long stored;
    private final long originAge;
    private final String etag;
    /** Last-Modified, else Date, else the time it was stored: what If-Modified-Since is compared with. */
    private final long lastModified;
    /** Its size as {@code show cache} counts it, and in blocks of {@link CacheSection#BLOCK_SIZE}. */
    final int size;
    final int blocks;
    /** One reference for the cache, one per transaction reading it. */
    private final AtomicInteger refs = new AtomicInteger(1);
    private final AtomicBoolean dropped = new AtomicBoolean();

    CacheEntry(CacheWriter w, ByteBuf body, long seq) {
        this.key = w.key;
        this.vary = w.vary;
        this.seq = seq;
        this.status = w.head.status();
        this.reason = w.head.reason();
        this.headers = w.head.headers();
        this.body = body;
        this.chunked = !headers.contains("content-length");
        this.expire = w.expire;
        this.stored = w.stored;
        this.originAge = w.originAge;
        int tag = -1;
        for (int i = headers.indexOf("etag", 0); i >= 0; i = headers.indexOf("etag", i + 1)) {
            tag = i;
        }
        this.etag = tag < 0 ? null : headers.value(tag).toString();
        this.lastModified = lastModified(headers, w.stored);
        this.size = w.head.htxSize() + body.readableBytes();
        this.blocks = (size + CacheSection.BLOCK_SIZE - 1) / CacheSection.BLOCK_SIZE;
    }

    private static long lastModified(HttpHeaders h, long now) {
        for (String name : new String[] {"last-modified", "date"}) {
            AsciiString v = h.get(name);
            long t = v == null ? Long.MIN_VALUE : HttpDate.parse(v);
            if (t != Long.MIN_VALUE && t != 0) {
                return t;
            }
        }
        return now;
    }

    /** The head of an answer from this entry at {@code now}: its fields and Age, as 304 when {@code notModified}. */
    ResponseHead head(long now, boolean notModified, boolean bodyless) {
        HttpHeaders h = copy(headers);
        h.add("age", Long.toString(Math.min(MAX_AGE, Math.max(0, now - stored) + originAge)));
        ResponseHead head = notModified ? new ResponseHead(11, 304, NOT_MODIFIED, h) : new ResponseHead(11, status, reason, h);
        head.bodyLength(bodyless || notModified || body.readableBytes() == 0 ? HttpHead.NO_BODY
                : chunked ? HttpHead.CHUNKED : body.readableBytes());
        return head;
    }

    /** A copy of the fields present in {@code from}. */
    static HttpHeaders copy(HttpHeaders from) {
        HttpHeaders h = new HttpHeaders();
        for (int i = 0, n = from.slots(); i < n; i++) {
            if (!from.removed(i)) {
                h.add(from.name(i), from.value(i));
            }
        }
        return h;
    }

    /** The body, for one answer (the caller owns it). */
    ByteBuf body() {
        return body.retainedDuplicate();
    }

    /**
     * A conditional request this entry answers with 304 (as HAProxy 2.6): an If-None-Match naming its ETag (weak
     * comparison) or "*"; without If-None-Match, an If-Modified-Since not before its Last-Modified.
     */
    boolean notModified(RequestHead request) {
        HttpHeaders h = request.headers();
        boolean conditional = false;
        for (String tag : HeaderValues.all(h, "if-none-match")) {
            conditional = true;
            if (tag.equals("*")) {
                return true;
            }
            if (etag == null) {
                break;
            }
            if (weakEquals(etag, tag)) {
                return true;
            }
        }
        if (conditional) {
            return false;
        }
        AsciiString since = h.get("if-modified-since");
        long t = since == null ? Long.MIN_VALUE : HttpDate.parse(since);
        return t != Long.MIN_VALUE && lastModified <= t;
    }

    /** RFC 7232 2.3.2's weak comparison: both quoted, equal once their W/ is left out. */
    private static boolean weakEquals(String a, String b) {
        a = a.startsWith("W/") ? a.substring(2) : a;
        b = b.startsWith("W/") ? b.substring(2) : b;
        return a.length() >= 2 && a.startsWith("\"") && a.endsWith("\"") && a.equals(b);
    }

    /** Takes a reader's reference; false when the entry is being freed (then it must not be read). */
    boolean tryRetain() {
        for (int n = refs.get(); n > 0; n = refs.get()) {
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Gives a reference back; the last frees the body. */
    void release() {
        if (refs.decrementAndGet() == 0) {
            body.release();
        }
    }

    /** The transactions reading it now. */
    int readers() {
        return Math.max(0, refs.get() - (dropped.get() ? 0 : 1));
    }

    /** Marks it dropped from the cache: true the first time only (then the cache's reference must be released). */
    boolean drop() {
        return dropped.compareAndSet(false, true);
    }
}
