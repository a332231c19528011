package io.fulcrum.conn;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.sample.SampleCatalog;

import java.util.function.BiConsumer;

/** The socket-level proxy options, and the sample fetches of connections and of the bytes they carry. */
public final class ConnModule implements Module {

    @Override
    public void register(Registry registry) {
        ConnFetches.register(SampleCatalog.of(registry));
        PayloadFetches.register(SampleCatalog.of(registry));
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        flag(options, "tcpka", Capability.ALL, (s, on) -> {
            s.clientKeepAlive = on;
            s.serverKeepAlive = on;
        });
        flag(options, "clitcpka", Capability.FE, (s, on) -> s.clientKeepAlive = on);
        flag(options, "srvtcpka", Capability.BE, (s, on) -> s.serverKeepAlive = on);
        flag(options, "nolinger", Capability.ALL, (s, on) -> s.nolinger = on);
        flag(options, "splice-auto", Capability.ALL, (s, on) -> s.spliceAuto = on);
        flag(options, "splice-request", Capability.ALL, (s, on) -> s.spliceRequest = on);
        flag(options, "splice-response", Capability.ALL, (s, on) -> s.spliceResponse = on);
    }

    private static void flag(KeywordTable<OptionContext> options, String name, int caps, BiConsumer<SocketOptions, Boolean> set) {
        options.add(name, caps, (o, l) -> {
            Args.noMoreThan(l, 0, "option " + name);
            set.accept(of(o.proxy()), o.enabled());
        });
    }

    public static SocketOptions of(io.fulcrum.proxy.ProxySpec p) {
        return p.part(SocketOptions.class, SocketOptions::new);
    }
}
