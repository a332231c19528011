package io.fulcrum.log;

import io.fulcrum.http.HttpHead;
import io.fulcrum.http.RequestTarget;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.netty.util.AsciiString;

import java.util.function.Function;

/**
 * What the stream's record keeps as received, as samples: the capture slots ({@code capture.req.hdr(n)},
 * {@code capture.res.hdr(n)}, filled by the {@code capture-req}/{@code capture-res} converters too) and the
 * request line ({@code capture.req.method}, {@code .uri}, {@code .ver}) and response version.
 */
final class CaptureFetches {
    private CaptureFetches() {
    }

    static void register(SampleCatalog c) {
        for (boolean response : new boolean[] {false, true}) {
            String side = response ? "res" : "req";
            c.fetch(new Fetch("capture." + side + ".hdr", ArgSpec.of(1, ArgType.SINT), SampleType.STR,
                    response ? Source.HRSHP : Source.HRQHP, (a, ctx, out) -> {
                String v = HeaderCaptures.captured(ctx, response, (int) a[0].num());
                return v != null && out.setStr(v);
            }));
            c.converter(new Converter("capture-" + side, ArgSpec.of(1, ArgType.SINT), SampleType.STR, SampleType.STR, (a, smp, ctx) -> {
                HeaderCaptures.store(ctx, response, (int) a[0].num(), smp.text());
                return true;
            }));
        }
        line(c, "capture.req.method", StreamLog::method);
        line(c, "capture.req.uri", log -> pathAndQuery(log.uri()));
        line(c, "capture.req.ver", StreamLog::httpVersion);
        c.fetch(new Fetch("capture.res.ver", ArgSpec.NONE, SampleType.STR, Source.HRQHP, (a, ctx, out) -> {
            ResponseHead r = ctx.response();
            return r != null && out.setStr(HttpHead.versionText(r.version()));
        }));
    }

    /** What HAProxy's http_get_path() keeps of a target: from its path on; null without a path ("*", "http://h"). */
    private static CharSequence pathAndQuery(AsciiString uri) {
        int start = uri == null ? -1 : RequestTarget.pathStart(uri);
        return start < 0 ? null : uri.subSequence(start, uri.length(), false);
    }

    /** A part of the request line as received (the request may have been rewritten since). */
    private static void line(SampleCatalog c, String name, Function<StreamLog, CharSequence> part) {
        c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.STR, Source.HRQHP, (a, ctx, out) -> {
            StreamLog log = StreamLog.of(ctx);
            CharSequence v = log == null || log.isBadRequest() ? null : part.apply(log);
            return v != null && out.setStr(v);
        }));
    }
}
