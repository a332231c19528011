package io.fulcrum.conn;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;

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
        flag(options, "socket-stats", Capability.FE, (s, on) -> s.socketStats = on);
        registry.table(ProxyModule.KEYWORDS).add("source", Capability.BE, (p, l) -> {
            if (!l.has(1)) {
                throw new ConfigException("'source' expects <addr>[:<port>], and optionally 'usesrc' <addr>, and 'interface' <name>.");
            }
            if (l.has(2)) {
                if (!l.arg(2).equals("usesrc") && !l.arg(2).equals("interface")) {
                    throw new ConfigException("'source' only supports optional keywords 'interface' and 'usesrc'.");
                }
                throw SourceAddress.unsupported(l.arg(2));
            }
            of(p).source = SourceAddress.parse(l.arg(1), false);
        });
        KeywordTable<ServerSpec> server = registry.table(ServerModule.OPTIONS);
        server.add("source", 1, (s, l) -> s.part(SourceAddress.OnServer.class, SourceAddress.OnServer::new).address =
                SourceAddress.parse(l.arg(1), true));
        server.add("socks4", 1, (s, l) -> s.part(Socks4.OnServer.class, Socks4.OnServer::new).proxy = Socks4.parse(l.arg(1)));
        for (String option : new String[] {"usesrc", "interface"}) {
            server.add(option, 1, (s, l) -> {
                throw SourceAddress.unsupported(option);
            });
        }
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
