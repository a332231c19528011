package io.fulcrum.backend;

import io.fulcrum.http.RequestHead;
import io.fulcrum.http.RequestTarget;
import io.fulcrum.persist.RdpCookie;
import io.fulcrum.sample.Hashes;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.fulcrum.sample.SampleContext;
import io.netty.util.AsciiString;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The hashing algorithms ({@code source}, {@code uri}, {@code url_param}, {@code hdr}, {@code rdp-cookie},
 * {@code hash}): a key of the
 * request hashed as HAProxy's get_server_sh/uh/ph/hh() do, looked up in the weight map or on the
 * consistent-hash ring ({@code hash-type}). A request without a key is balanced in turn.
 */
final class Hashed implements Balancer {
    private static final long NO_KEY = -1;

    private final BalanceSpec spec;
    private final WeightMap map;
    private final HashRing ring;

    Hashed(BalanceSpec spec) {
        this.spec = spec;
        this.map = spec.consistent ? null : new WeightMap();
        this.ring = spec.consistent ? new HashRing(spec.balanceFactor) : null;
    }

    @Override
    public void plan(Farm farm) {
        if (map != null) {
            map.plan(farm);
        } else {
            ring.plan(farm);
        }
    }

    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        long hash = hash(ctx);
        if (hash == NO_KEY) {
            return map != null ? map.pick(ctx, avoid) : ring.pick(ctx, avoid);
        }
        return map != null ? map.byHash(hash) : ring.byHash(hash, avoid);
    }

    /** The request's hash, or {@link #NO_KEY}. */
    long hash(SampleContext ctx) {
        return switch (spec.algorithm) {
            case SOURCE -> source(ctx.source());
            case URI -> ctx.request() == null ? NO_KEY : uri(ctx.request().uri());
            case URL_PARAM -> ctx.request() == null ? NO_KEY : urlParam(ctx.request(), ctx.requestBody());
            case HDR -> ctx.request() == null ? NO_KEY : header(ctx.request());
            case RDP_COOKIE -> rdpCookie(ctx.requestContent());
            case HASH -> expression(ctx);
            default -> NO_KEY;
        };
    }

    /** get_server_sh(): the address's 32-bit words xored, then avalanche unless map-based; no hash function. */
    long source(SocketAddress address) {
        if (!(address instanceof InetSocketAddress in) || in.getAddress() == null) {
            return NO_KEY;
        }
        byte[] a = in.getAddress().getAddress();
        int h = 0;
        for (int i = 0; i + 4 <= a.length; i += 4) {
            h ^= (a[i] & 0xff) << 24 | (a[i + 1] & 0xff) << 16 | (a[i + 2] & 0xff) << 8 | (a[i + 3] & 0xff);
        }
        return spec.consistent ? Hashes.avalanche(h) : h & 0xffffffffL;
    }

    /** get_server_uh(): the URI up to '?' (unless whole), at most len characters and depth slashes. */
    long uri(AsciiString uri) {
        byte[] b = uri.array();
        int start = uri.arrayOffset();
        int len = uri.length();
        if (spec.uriPathOnly) {
            int p = RequestTarget.pathStart(uri);
            start += Math.max(0, p);
            len = p < 0 ? 0 : len - p;
        }
        if (spec.uriLength > 0) {
            len = Math.min(len, spec.uriLength);
        }
        int end = start;
        int slashes = 0;
        int depthEnd = spec.uriDepth == 0 ? 0 : spec.uriDepth + 1;
        while (len-- > 0) {
            byte c = b[end];
            if (c == '/') {
                if (++slashes == depthEnd) {
                    break;
                }
            } else if (c == '?' && !spec.uriWhole) {
                break;
            }
            end++;
        }
        return finish(b, start, end - start);
    }

    /** The parameter of the query string, else, for a POST, of its body (what came of it: see Backend.hashesPostBody). */
    private long urlParam(RequestHead request, ByteBuf body) {
        long h = urlParam(request.uri());
        return h == NO_KEY && body != null && request.method().contentEquals("POST") ? urlParamInBody(ByteBufUtil.getBytes(body)) : h;
    }

    /**
     * get_server_ph_post(): the value of the first {@code name=value} of the body ('&amp;'-separated), whatever its type;
     * as HAProxy, a value whose first character is not a token's gives no key.
     */
    long urlParamInBody(byte[] b) {
        String name = spec.param;
        int plen = name.length();
        int p = 0;
        while (b.length - p > plen) {
            if (b[p + plen] == '=' && startsWith(b, p, name)) {
                int v = p + plen + 1;
                int e = v;
                while (e < b.length && b[e] != '&') {
                    if (!token(b[v])) {
                        return NO_KEY;
                    }
                    e++;
                }
                return finish(b, v, e - v);
            }
            while (p < b.length && b[p] != '&') {
                p++;
            }
            if (p == b.length) {
                return NO_KEY;
            }
            p++;
        }
        return NO_KEY;
    }

    /** RFC 7230's tchar. */
    private static boolean token(byte c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    /** get_server_ph(): the value of the first {@code name=value} of the query string ('&amp;'-separated). */
    long urlParam(AsciiString uri) {
        byte[] b = uri.array();
        int off = uri.arrayOffset();
        int q = uri.indexOf('?', 0);
        if (q < 0) {
            return NO_KEY;
        }
        int end = off + uri.length();
        String name = spec.param;
        int plen = name.length();
        int p = off + q + 1;
        while (end - p > plen) {
            if (b[p + plen] == '=' && startsWith(b, p, name)) {
                int v = p + plen + 1;
                int e = v;
                while (e < end && b[e] != '&') {
                    e++;
                }
                return finish(b, v, e - v);
            }
            while (p < end && b[p] != '&') {
                p++;
            }
            if (p == end) {
                return NO_KEY;
            }
            p++;
        }
        return NO_KEY;
    }

    private static boolean startsWith(byte[] b, int at, String s) {
        for (int i = 0; i < s.length(); i++) {
            if (b[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * get_server_hh(): the first value of the header (up to a comma); with {@code use_domain_only}, the
     * part before the last dot and after the one before it ("1wt" of "haproxy.1wt.eu").
     */
    long header(RequestHead request) {
        AsciiString field = request.headers().get(spec.param);
        if (field == null) {
            return NO_KEY;
        }
        byte[] b = field.array();
        int start = field.arrayOffset();
        int end = start + field.length();
        for (int i = start; i < end; i++) {
            if (b[i] == ',') {
                end = i;
                break;
            }
        }
        while (start < end && (b[start] == ' ' || b[start] == '\t')) {
            start++;
        }
        while (end > start && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
            end--;
        }
        if (start == end) {
            return NO_KEY;
        }
        if (!spec.domainOnly) {
            return finish(b, start, end - start);
        }
        int domainEnd = end;
        int p = end - 1;
        while (p >= start && b[p] != '.') {
            p--;
        }
        if (p < start) {
            return finish(b, start, end - start); // no dot: the whole value
        }
        domainEnd = p;
        p--;
        while (p >= start && b[p] != '.') {
            p--;
        }
        return finish(b, p + 1, domainEnd - p - 1);
    }

    /** get_server_rch(): the value of the RDP cookie; none (or not all of it yet) is no key. */
    long rdpCookie(ByteBuf content) {
        int[] end = new int[1];
        int at = RdpCookie.find(content, spec.param, end);
        if (at < 0 || end[0] == at) {
            return NO_KEY;
        }
        byte[] b = ByteBufUtil.getBytes(content, at, end[0] - at);
        return finish(b, 0, b.length);
    }

    /** get_server_expr(): the expression's sample as binary; none is no key. */
    long expression(SampleContext ctx) {
        Sample s = new Sample();
        if (!spec.hashExpr.eval(ctx, s, SampleType.BIN)) {
            return NO_KEY;
        }
        return finish(s.bytes(), s.offset(), s.length());
    }

    /** gen_hash() with the configured function, then the avalanche when asked for. */
    private long finish(byte[] b, int off, int len) {
        long h = switch (spec.function) {
            case SDBM -> Hashes.sdbm(b, off, len);
            case DJB2 -> Hashes.djb2(b, off, len);
            case WT6 -> Hashes.wt6(b, off, len);
            case CRC32 -> Hashes.crc32(b, off, len);
        };
        return spec.avalanche ? Hashes.avalanche(h) : h;
    }
}
