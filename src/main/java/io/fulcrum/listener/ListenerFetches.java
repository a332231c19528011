package io.fulcrum.listener;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

/** The fetches of the listening socket a client connected to (configuration.txt 7.3.3). */
final class ListenerFetches {
    private ListenerFetches() {
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("so_id", ArgSpec.NONE, SampleType.SINT, Source.FTEND,
                (a, ctx, out) -> ctx.listener() != null && out.setSint(ctx.listener().numericId())));
        c.fetch(new Fetch("so_name", ArgSpec.NONE, SampleType.STR, Source.FTEND,
                (a, ctx, out) -> ctx.listener() != null && ctx.listener().name() != null && out.setStr(ctx.listener().name())));
        c.fetch(new Fetch("dst_conn", ArgSpec.NONE, SampleType.SINT, Source.FTEND,
                (a, ctx, out) -> ctx.listener() != null && out.setSint(ctx.listener().connections())));
    }
}
