package io.fulcrum.backend;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.fulcrum.server.Server;

import java.util.function.ToLongFunction;

import static io.fulcrum.sample.ArgType.BE;

/**
 * The backend fetches of configuration.txt 7.3.2 and 7.3.3: the stream's backend ({@code be_id},
 * {@code be_name}...), and the state of a backend named as argument, or of the current one. Fulcrum has no
 * server maxconn nor queues yet: servers take every connection, so queues are empty and free slots unlimited.
 */
final class BackendFetches {
    private BackendFetches() {
    }

    static void register(SampleCatalog c) {
        current(c, "be_id", SampleType.SINT, Backend::numericId);
        c.fetch(new Fetch("be_name", ArgSpec.NONE, SampleType.STR, Source.BKEND,
                (a, ctx, out) -> ctx.backend() != null && out.setStr(ctx.backend().name())));
        current(c, "be_server_timeout", SampleType.SINT, b -> b.timeouts().server);
        current(c, "be_tunnel_timeout", SampleType.SINT, b -> b.timeouts().tunnel);
        named(c, "be_conn", Backend::currentStreams);
        named(c, "nbsrv", b -> b.servers().stream().filter(Server::usable).count());
        // HAProxy answers -1 ("does not make sense") when a server has no maxconn: none has one here.
        named(c, "be_conn_free", b -> b.servers().stream().anyMatch(Server::usable) ? -1 : 0);
        named(c, "connslots", b -> b.servers().stream().anyMatch(Server::up) ? -1 : 0);
        named(c, "queue", b -> 0);
        named(c, "avg_queue", b -> 0);
    }

    /** A fetch of the stream's backend, where there is one. */
    private static void current(SampleCatalog c, String name, SampleType type, ToLongFunction<Backend> value) {
        c.fetch(new Fetch(name, ArgSpec.NONE, type, Source.BKEND,
                (a, ctx, out) -> ctx.backend() != null && out.setSint(value.applyAsLong(ctx.backend()))));
    }

    /** A fetch of the backend named as argument, or of the current one. */
    private static void named(SampleCatalog c, String name, ToLongFunction<Backend> value) {
        c.fetch(new Fetch(name, ArgSpec.of(1, BE), SampleType.SINT, Source.INTRN, (a, ctx, out) -> {
            Backend b = backend(a, ctx);
            return b != null && out.setSint(value.applyAsLong(b));
        }));
    }

    /**
     * The backend named by {@code a[0]}, or when it is left out the current one: HAProxy takes the proxy whose
     * rules are evaluated, which is the stream's backend once it has one.
     */
    private static Backend backend(Arg[] a, SampleContext ctx) {
        return a[0].text().isEmpty() ? ctx.backend() : ctx.backend(a[0].text());
    }
}
