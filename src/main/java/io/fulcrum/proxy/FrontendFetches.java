package io.fulcrum.proxy;

import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.function.ToLongFunction;

import static io.fulcrum.sample.ArgType.FE;

/** The frontend fetches of configuration.txt 7.3.2 and 7.3.3: the stream's frontend, or one named as argument. */
final class FrontendFetches {
    private FrontendFetches() {
    }

    static void register(SampleCatalog c) {
        current(c, "fe_id", Frontend::numericId);
        current(c, "fe_client_timeout", f -> f.timeouts().client);
        c.fetch(new Fetch("fe_name", ArgSpec.NONE, SampleType.STR, Source.FTEND,
                (a, ctx, out) -> ctx.frontend() != null && out.setStr(ctx.frontend().name())));
        c.fetch(new Fetch("fe_defbe", ArgSpec.NONE, SampleType.STR, Source.FTEND, (a, ctx, out) -> {
            String name = ctx.frontend() == null ? null : ctx.frontend().defaultBackendName();
            return name != null && out.setStr(name);
        }));
        named(c, "fe_conn", f -> f.limit().current());
        named(c, "fe_sess_rate", f -> f.counters().sessionRate().rate());
        named(c, "fe_req_rate", f -> f.counters().requestRate().rate());
    }

    /** A fetch of the frontend named as argument, or of the stream's. */
    private static void named(SampleCatalog c, String name, ToLongFunction<Frontend> value) {
        c.fetch(new Fetch(name, ArgSpec.of(1, FE), SampleType.SINT, Source.INTRN, (a, ctx, out) -> {
            Frontend f = a[0].text().isEmpty() ? ctx.frontend() : ctx.frontend(a[0].text());
            return f != null && out.setSint(value.applyAsLong(f));
        }));
    }

    private static void current(SampleCatalog c, String name, ToLongFunction<Frontend> value) {
        c.fetch(new Fetch(name, ArgSpec.NONE, SampleType.SINT, Source.FTEND,
                (a, ctx, out) -> ctx.frontend() != null && out.setSint(value.applyAsLong(ctx.frontend()))));
    }
}
