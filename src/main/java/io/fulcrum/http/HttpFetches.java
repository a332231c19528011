package io.fulcrum.http;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import static io.fulcrum.http.Direction.REQUEST;
import static io.fulcrum.http.Direction.RESPONSE;
import static io.fulcrum.sample.ArgType.STR;

/**
 * The HTTP sample fetches (configuration.txt 7.3.6): those of the start lines and bodies here, the others in
 * {@link HeaderFetches}, {@link CookieFetches}, {@link UrlFetches} and {@link AuthFetches}.
 */
final class HttpFetches {
    private HttpFetches() {
    }

    static void register(SampleCatalog c) {
        HeaderFetches.register(c);
        CookieFetches.register(c);
        UrlFetches.register(c);
        AuthFetches.register(c);
        c.fetch(new Fetch("method", ArgSpec.NONE, SampleType.METH, Source.HRQHP,
                (a, ctx, out) -> ctx.httpRequest() != null && out.setMeth(ctx.httpRequest().method())));
        HeaderFetches.withAlias(c, new Fetch("req.ver", ArgSpec.NONE, SampleType.STR, Source.HRQHV,
                (a, ctx, out) -> version(ctx.httpRequest(), out)), "req_ver");
        HeaderFetches.withAlias(c, new Fetch("res.ver", ArgSpec.NONE, SampleType.STR, Source.HRSHV,
                (a, ctx, out) -> version(ctx.response(), out)), "resp_ver");
        c.fetch(new Fetch("status", ArgSpec.NONE, SampleType.SINT, Source.HRSHP,
                (a, ctx, out) -> ctx.response() != null && out.setSint(ctx.response().status())));
        c.fetch(new Fetch("http_first_req", ArgSpec.NONE, SampleType.BOOL, Source.HRQHP, (a, ctx, out) -> {
            long n = ctx.requestNumber();
            return n > 0 && out.setBool(n == 1);
        }));
        // req.proto_http: registered by the HTTP/1 module, whose parser tells it in a TCP stream too.
        for (Direction d : new Direction[] {REQUEST, RESPONSE}) {
            String p = d == REQUEST ? "req." : "res.";
            c.fetch(HeaderFetches.fetch(p + "body", ArgSpec.NONE, SampleType.BIN, d, (a, ctx, out) -> {
                byte[] body = body(ctx, d);
                return body != null && out.setBin(body);
            }));
            c.fetch(HeaderFetches.fetch(p + "body_len", ArgSpec.NONE, SampleType.SINT, d, (a, ctx, out) -> {
                long n = bodyReceived(ctx, d);
                return n >= 0 && out.setSint(n);
            }));
            c.fetch(HeaderFetches.fetch(p + "body_size", ArgSpec.NONE, SampleType.SINT, d, (a, ctx, out) -> {
                HttpHead head = d.head(ctx);
                if (head == null) {
                    return false;
                }
                long n = head.bodyLength() >= 0 && !held(ctx, d) ? head.bodyLength() : bodyReceived(ctx, d);
                return n >= 0 && out.setSint(n);
            }));
        }
        c.fetch(new Fetch("req.body_param", ArgSpec.of(0, STR), SampleType.BIN, Source.HRQHV, HttpFetches::bodyParam));
    }

    /** "1.1" for HTTP/1.1. */
    private static boolean version(HttpHead head, Sample out) {
        if (head == null) {
            return false;
        }
        int v = head.version();
        return out.setStr(new byte[] {(byte) ('0' + v / 10), '.', (byte) ('0' + v % 10)});
    }

    /**
     * The number of body bytes the stream holds: 0 for a message without a body, -1 when the message or
     * its body is not at hand (the stream does not keep it).
     */
    private static long bodyReceived(SampleContext ctx, Direction d) {
        HttpHead head = d.head(ctx);
        if (head == null) {
            return -1;
        }
        if (head.bodyLength() == HttpHead.NO_BODY || held(ctx, d)) {
            return 0;
        }
        ByteBuf body = d == REQUEST ? ctx.requestBody() : ctx.responseBody();
        return body == null ? -1 : body.readableBytes();
    }

    /** The request head held in a TCP stream: HAProxy parses its headers only, its body is empty. */
    private static boolean held(SampleContext ctx, Direction d) {
        return d == REQUEST && ctx.request() == null;
    }

    /** A copy of the body bytes the stream holds (empty for a message without a body), or null. */
    private static byte[] body(SampleContext ctx, Direction d) {
        long n = bodyReceived(ctx, d);
        if (n <= 0) {
            return n < 0 ? null : new byte[0];
        }
        return ByteBufUtil.getBytes(d == REQUEST ? ctx.requestBody() : ctx.responseBody());
    }

    /** {@code req.body_param([name])}: the first parameter of that name in a form-encoded body ("a=1&amp;b=2"). */
    private static boolean bodyParam(Arg[] a, SampleContext ctx, Sample out) {
        byte[] body = body(ctx, REQUEST);
        if (body == null) {
            return false;
        }
        long v = RequestTarget.param(body, 0, body.length, a.length > 0 ? a[0].text() : "", '&');
        return v >= 0 && out.setBin(body, (int) (v >>> 32), (int) v - (int) (v >>> 32));
    }
}
