package io.fulcrum.mux.h1;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

/**
 * {@code req.proto_http} (the predefined ACL {@code HTTP}): true in an HTTP stream; in a TCP stream, true once the
 * bytes held by {@code tcp-request content} rules hold a whole HTTP/1 request head ({@link H1HeadReader}; a head still
 * incomplete makes the rule wait while the inspect delay runs; bytes that are not HTTP/1 are false).
 */
final class ProtoHttpFetch {
    private ProtoHttpFetch() {
    }

    static void register(SampleCatalog c) {
        Fetch f = new Fetch("req.proto_http", ArgSpec.NONE, SampleType.BOOL, Source.HRQHP,
                (a, ctx, out) -> ctx.httpRequest() != null && out.setBool(true));
        c.fetch(f);
        c.fetch(f.named("req_proto_http"));
    }
}
