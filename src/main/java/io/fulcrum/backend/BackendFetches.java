package io.fulcrum.backend;

import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Converter;
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
 * {@code be_name}...), and the state of a backend named as argument, or of the current one: servers, free
 * connection slots, queues and session rate, computed as HAProxy's smp_fetch_* do; the {@code nbsrv} converter.
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
        for (boolean tunnel : new boolean[] {false, true}) {
            c.fetch(new Fetch(tunnel ? "cur_tunnel_timeout" : "cur_server_timeout", ArgSpec.NONE, SampleType.SINT, Source.BKEND, (a, ctx, out) -> {
                long t = ctx.currentTimeout(tunnel);
                return t >= 0 && out.setSint(t);
            }));
        }
        for (boolean offset : new boolean[] {false, true}) {
            c.fetch(new Fetch(offset ? "prio_offset" : "prio_class", ArgSpec.NONE, SampleType.SINT, Source.INTRN,
                    (a, ctx, out) -> out.setSint(ctx.priority(offset))));
        }
        named(c, "be_conn", Backend::currentStreams);
        named(c, "nbsrv", BackendFetches::usableServers);
        named(c, "be_sess_rate", b -> b.counters().sessionRate().rate());
        // The backend named by the input, found at run time (a name from a map or a header).
        c.converter(new Converter("nbsrv", ArgSpec.NONE, SampleType.STR, SampleType.SINT, (a, smp, ctx) -> {
            Backend b = ctx.backend(smp.text());
            return b != null && smp.setSint(usableServers(b));
        }));
        named(c, "be_conn_free", BackendFetches::connFree);
        named(c, "connslots", BackendFetches::connSlots);
        named(c, "queue", Backend::queued);
        // HAProxy's rounding up, and twice the queue when no server is in use.
        named(c, "avg_queue", b -> b.serversInUse() > 0 ? (b.queued() + b.serversInUse() - 1) / b.serversInUse() : 2L * b.queued());
    }

    private static long usableServers(Backend b) {
        return b.servers().stream().filter(Server::usable).count();
    }

    /** Free slots of the servers in use (-1 when one of them has no maxconn: unlimited). */
    private static long connFree(Backend b) {
        long free = 0;
        for (Server s : b.servers()) {
            if (!s.up() || !b.inUse(s)) {
                continue;
            }
            if (s.maxconn() == 0) {
                return -1;
            }
            free += Math.max(0, b.maxconnNow(s) - s.streams().current());
        }
        return free;
    }

    /** Free slots and free queue places of the servers that are up (-1 when one has no maxconn or no maxqueue). */
    private static long connSlots(Backend b) {
        long free = 0;
        for (Server s : b.servers()) {
            if (!s.up()) {
                continue;
            }
            if (s.maxconn() == 0 || s.spec().maxqueue == 0) {
                return -1;
            }
            free += s.maxconn() - s.streams().current() + s.spec().maxqueue - b.queued(s);
        }
        return free;
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
