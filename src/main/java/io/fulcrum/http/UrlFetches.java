package io.fulcrum.http;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Hashes;
import io.fulcrum.sample.IpText;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.util.AsciiString;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.function.Predicate;

import static io.fulcrum.sample.ArgType.STR;

/**
 * The fetches of configuration.txt 7.3.6 that read the request target: {@code path}, {@code query},
 * {@code url_param}, the {@code base} family (the Host header and the path) and their hashes. Parts of the
 * target are views on its bytes; what joins the Host header to it is a new array.
 */
final class UrlFetches {
    private UrlFetches() {
    }

    private static final ArgSpec NAME_DELIM = ArgSpec.of(0, STR, STR);

    static void register(SampleCatalog c) {
        c.fetch(fetch("url", SampleType.STR, (a, uri, ctx, out) -> out.setStr(uri)));
        c.fetch(fetch("path", SampleType.STR, (a, uri, ctx, out) -> path(uri, out, false)));
        c.fetch(fetch("pathq", SampleType.STR, (a, uri, ctx, out) -> path(uri, out, true)));
        c.fetch(fetch("query", SampleType.STR, (a, uri, ctx, out) -> query(uri, out)));
        c.fetch(fetch("base", SampleType.STR, (a, uri, ctx, out) -> base(ctx, uri, out, false)));
        c.fetch(fetch("baseq", SampleType.STR, (a, uri, ctx, out) -> base(ctx, uri, out, true)));
        c.fetch(fetch("base32", SampleType.SINT, (a, uri, ctx, out) -> out.setSint(hash(ctx, uri, false) & 0xffffffffL)));
        c.fetch(fetch("url32", SampleType.SINT, (a, uri, ctx, out) -> out.setSint(hash(ctx, uri, true) & 0xffffffffL)));
        c.fetch(fetch("base32+src", SampleType.BIN, (a, uri, ctx, out) -> withSource(hash(ctx, uri, false), ctx, out)));
        c.fetch(fetch("url32+src", SampleType.BIN, (a, uri, ctx, out) -> withSource(hash(ctx, uri, true), ctx, out)));
        c.fetch(fetch("url_ip", SampleType.IPV4, (a, uri, ctx, out) -> {
            long hostPort = hostPort(uri);
            return hostPort >= 0 && out.setIpv4((int) hostPort);
        }));
        c.fetch(fetch("url_port", SampleType.SINT, (a, uri, ctx, out) -> {
            long hostPort = hostPort(uri);
            return hostPort >= 0 && out.setSint(hostPort >>> 32);
        }));
        Fetch urlp = new Fetch("url_param", NAME_DELIM, SampleType.STR, Source.HRQHV,
                (a, ctx, out) -> ctx.httpRequest() != null && urlParam(a, ctx.httpRequest().uri(), out))
                .withEach(UrlFetches::eachUrlParam);
        HeaderFetches.withAlias(c, urlp, "urlp");
        c.fetch(new Fetch("urlp_val", NAME_DELIM, SampleType.SINT, Source.HRQHV, (a, ctx, out) -> {
            if (ctx.httpRequest() == null || !urlParam(a, ctx.httpRequest().uri(), out)) {
                return false;
            }
            return out.setSint(LaxInt.parse(out.ascii(), 0, out.length()));
        }).withEach((a, ctx, out, visitor) -> eachUrlParam(a, ctx, out,
                v -> v.setSint(LaxInt.parse(v.ascii(), 0, v.length())) && visitor.test(v))));
    }

    /** A fetch of the request target. */
    @FunctionalInterface
    private interface TargetFunction {
        boolean fetch(Arg[] args, AsciiString uri, SampleContext ctx, Sample out);
    }

    private static Fetch fetch(String name, SampleType type, TargetFunction fn) {
        return new Fetch(name, ArgSpec.NONE, type, Source.HRQHV, (a, ctx, out) -> {
            RequestHead request = ctx.httpRequest();
            return request != null && fn.fetch(a, request.uri(), ctx, out);
        });
    }

    private static boolean path(AsciiString uri, Sample out, boolean withQuery) {
        int start = RequestTarget.pathStart(uri);
        if (start < 0) {
            return false;
        }
        int end = withQuery ? uri.length() : RequestTarget.pathEnd(uri, start);
        return out.setStr(uri.array(), uri.arrayOffset() + start, end - start);
    }

    /** What follows the first '?' of the path; none without a '?'. */
    private static boolean query(AsciiString uri, Sample out) {
        int start = RequestTarget.pathStart(uri);
        int q = start < 0 ? -1 : uri.indexOf('?', start);
        return q >= 0 && out.setStr(uri.array(), uri.arrayOffset() + q + 1, uri.length() - q - 1);
    }

    /** The first Host header's value, or null when there is none or it is empty. */
    private static AsciiString host(SampleContext ctx) {
        AsciiString host = ctx.httpRequest().headers().get("host");
        return host == null || host.isEmpty() ? null : host;
    }

    /** The Host header then the path (with the query when asked); the path alone without a Host. */
    private static boolean base(SampleContext ctx, AsciiString uri, Sample out, boolean withQuery) {
        AsciiString host = host(ctx);
        if (host == null) {
            return path(uri, out, withQuery);
        }
        int start = RequestTarget.pathStart(uri);
        if (start < 0) {
            return out.setStr(host);
        }
        int end = withQuery ? uri.length() : RequestTarget.pathEnd(uri, start);
        byte[] b = new byte[host.length() + end - start];
        System.arraycopy(host.array(), host.arrayOffset(), b, 0, host.length());
        System.arraycopy(uri.array(), uri.arrayOffset() + start, b, host.length(), end - start);
        return out.setStr(b);
    }

    /**
     * SDBM of the Host header then the path, without ({@code base32}) or with ({@code url32}) the query, fully
     * mixed: exactly {@code base,sdbm(1)} and {@code baseq,sdbm(1)}.
     */
    private static int hash(SampleContext ctx, AsciiString uri, boolean withQuery) {
        int h = 0;
        AsciiString host = host(ctx);
        if (host != null) {
            h = Hashes.sdbm(h, host.array(), host.arrayOffset(), host.length());
        }
        int start = RequestTarget.pathStart(uri);
        if (start >= 0) {
            int end = withQuery ? uri.length() : RequestTarget.pathEnd(uri, start);
            h = Hashes.sdbm(h, uri.array(), uri.arrayOffset() + start, end - start);
        }
        return (int) Hashes.avalanche(h);
    }

    /** The hash (4 bytes, big-endian) followed by the client's address (4 or 16 bytes). */
    private static boolean withSource(int hash, SampleContext ctx, Sample out) {
        if (!(ctx.source() instanceof InetSocketAddress isa) || isa.getAddress() == null) {
            return false;
        }
        InetAddress addr = isa.getAddress();
        byte[] ip = addr.getAddress();
        return out.setBin(ByteBuffer.allocate(4 + ip.length).putInt(hash).put(ip).array());
    }

    /**
     * The IPv4 address and port of an "http://" or "https://" target whose host is a dotted quad: the port
     * in the upper 32 bits, the address in the lower ones; -1 otherwise. As in HAProxy, the address ends at
     * the first byte that cannot continue it, the port at the first non-digit, and the port keeps 16 bits.
     */
    static long hostPort(AsciiString uri) {
        int port;
        int i;
        if (uri.regionMatches(true, 0, "http://", 0, 7)) {
            port = 80;
            i = 7;
        } else if (uri.regionMatches(true, 0, "https://", 0, 8)) {
            port = 443;
            i = 8;
        } else {
            return -1;
        }
        byte[] b = uri.array();
        int off = uri.arrayOffset();
        long v4 = IpText.scan4(b, off + i, off + uri.length());
        if (v4 < 0) {
            return -1;
        }
        i += (int) (v4 >>> 32);
        if (i < uri.length() && uri.charAt(i) == ':') {
            port = 0;
            for (i++; i < uri.length() && uri.charAt(i) >= '0' && uri.charAt(i) <= '9'; i++) {
                port = port * 10 + uri.charAt(i) - '0';
            }
            port &= 0xffff;
        }
        return (long) port << 32 | v4 & 0xffffffffL;
    }

    /**
     * {@code url_param([name[,delimiter]])}: the first parameter of that name after the first {@code delimiter}
     * ('?' by default); parameters end at '&amp;', ';' or the delimiter.
     */
    private static boolean urlParam(Arg[] a, AsciiString uri, Sample out) {
        return eachParam(a, uri, out, v -> true);
    }

    /** An ACL on url_param matches any parameter of that name, as HAProxy's fetch gives them all in turn. */
    private static boolean eachUrlParam(Arg[] a, SampleContext ctx, Sample out, Predicate<Sample> visitor) {
        return ctx.httpRequest() != null && eachParam(a, ctx.httpRequest().uri(), out, visitor);
    }

    /** Visits the parameters of that name in order until {@code visitor} accepts one. */
    private static boolean eachParam(Arg[] a, AsciiString uri, Sample out, Predicate<Sample> visitor) {
        String name = a.length > 0 ? a[0].text() : "";
        int delimiter = a.length > 1 && !a[1].text().isEmpty() ? a[1].text().charAt(0) : '?';
        int start = uri.indexOf((char) delimiter, 0);
        if (start < 0) {
            return false;
        }
        int off = uri.arrayOffset();
        int from = off + start + 1;
        while (true) {
            long v = RequestTarget.param(uri.array(), from, off + uri.length(), name, delimiter);
            if (v < 0) {
                return false;
            }
            if (out.setStr(uri.array(), (int) (v >>> 32), (int) v - (int) (v >>> 32)) && visitor.test(out)) {
                return true;
            }
            from = (int) v + 1;
        }
    }
}
