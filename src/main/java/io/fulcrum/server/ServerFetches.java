package io.fulcrum.server;

import io.fulcrum.backend.Backend;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

import static io.fulcrum.sample.ArgType.SRV;

/**
 * The server fetches of configuration.txt 7.3.2 and 7.3.3: the stream's server ({@code srv_id},
 * {@code srv_name}), and the state of a server named as {@code [backend/]server}; the {@code srv_queue} converter.
 */
final class ServerFetches {
    private ServerFetches() {
    }

    /** A {@code [backend/]server} argument, split once at configuration time. */
    private record ServerRef(String backend, String server) {
        static ServerRef of(String text) {
            int slash = text.indexOf('/');
            return slash < 0 ? new ServerRef(null, text) : new ServerRef(text.substring(0, slash), text.substring(slash + 1));
        }
    }

    static void register(SampleCatalog c) {
        c.fetch(new Fetch("srv_id", ArgSpec.NONE, SampleType.SINT, Source.SERVR,
                (a, ctx, out) -> ctx.server() != null && out.setSint(ctx.server().numericId())));
        c.fetch(new Fetch("srv_name", ArgSpec.NONE, SampleType.STR, Source.SERVR,
                (a, ctx, out) -> ctx.server() != null && out.setStr(ctx.server().name())));
        // The streams the server serves (HAProxy's cur_sess), not its open connections: idle pooled ones do not count.
        named(c, "srv_conn", SampleType.SINT, s -> s.streams().current());
        // -1 for a server without maxconn, as HAProxy: its free slots are unlimited.
        namedIn(c, "srv_conn_free", (b, s) -> s.maxconn() == 0 ? -1 : Math.max(0, b.maxconnNow(s) - s.streams().current()));
        namedIn(c, "srv_queue", Backend::queued);
        named(c, "srv_sess_rate", SampleType.SINT, s -> s.counters().sessionRate().rate());
        // The server named by the input, "[<backend>/]<server>", found at run time (a cookie's value...).
        c.converter(new Converter("srv_queue", ArgSpec.NONE, SampleType.STR, SampleType.SINT, (a, smp, ctx) -> {
            ServerRef ref = ServerRef.of(smp.text());
            Backend b = ref.backend() == null ? ctx.backend() : ctx.backend(ref.backend());
            Server s = b == null ? null : find(b, ref.server());
            return s != null && smp.setSint(b.queued(s));
        }));
        named(c, "srv_is_up", SampleType.BOOL, s -> s.up() ? 1 : 0);
        named(c, "srv_iweight", SampleType.SINT, s -> s.state().initialWeight());
        named(c, "srv_uweight", SampleType.SINT, Server::weight);
        namedIn(c, "srv_weight", Backend::effectiveWeight); // (follows a slow start's steps)
    }

    private static void named(SampleCatalog c, String name, SampleType type, ToLongFunction<Server> value) {
        fetch(c, name, type, (b, s) -> value.applyAsLong(s));
    }

    /** A fetch of a server's state that its backend keeps (slots, queue). */
    private static void namedIn(SampleCatalog c, String name, ToLongBiFunction<Backend, Server> value) {
        fetch(c, name, SampleType.SINT, value);
    }

    private static void fetch(SampleCatalog c, String name, SampleType type, ToLongBiFunction<Backend, Server> value) {
        c.fetch(new Fetch(name, ArgSpec.of(1, SRV), type, Source.INTRN, (a, ctx, out) -> {
            ServerRef ref = a[0].as(ServerRef.class);
            Backend b = ref.backend() == null ? ctx.backend() : ctx.backend(ref.backend());
            Server s = b == null ? null : find(b, ref.server());
            if (s == null) {
                return false;
            }
            long v = value.applyAsLong(b, s);
            return type == SampleType.BOOL ? out.setBool(v != 0) : out.setSint(v);
        }, a -> {
            String t = a[0].text(); // a missing name is reported once proxies are known (ProxyArgs)
            a[0] = new Arg(SRV, t, 0, ServerRef.of(t));
        }));
    }

    /** The server named {@code name} in {@code b}, or null. */
    private static Server find(Backend b, String name) {
        for (Server s : b.servers()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }
}
