package io.fulcrum.conn;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.OptionContext;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.server.ServerModule;
import io.fulcrum.server.ServerSpec;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/** The socket-level proxy options, and the sample fetches of connections and of the bytes they carry. */
public final class ConnModule implements Module {

    @Override
    public void register(Registry registry) {
        ConnFetches.register(SampleCatalog.of(registry));
        PayloadFetches.register(SampleCatalog.of(registry));
        DistccFetches.register(SampleCatalog.of(registry));
        KeywordTable<OptionContext> options = registry.table(ProxyModule.OPTIONS);
        flag(options, "tcpka", Capability.ALL | Capability.NO_NEGATION, (s, on) -> { // HAProxy has no "no option tcpka"
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
        flag(options, "tcp-smart-accept", Capability.FE, (s, on) -> s.smartAccept = on);
        flag(options, "tcp-smart-connect", Capability.BE, (s, on) -> s.smartConnect = on);
        String[] tunables = {"cnt", "idle", "intvl"};
        for (int i = 0; i < 3; i++) {
            int at = i;
            String cli = "clitcpka-" + tunables[i];
            String srv = "srvtcpka-" + tunables[i];
            registry.table(ProxyModule.KEYWORDS).add(cli, Capability.FE, (p, l) -> of(p).clientKeepAliveTuning[at] = keepAliveTuning(l, cli, at));
            registry.table(ProxyModule.KEYWORDS).add(srv, Capability.BE, (p, l) -> of(p).serverKeepAliveTuning[at] = keepAliveTuning(l, srv, at));
        }
        // Global, applied to every proxy's sockets: [side][0] receive, [side][1] send; side 0 the clients.
        String[] sides = {"client", "server"};
        for (int side = 0; side < 2; side++) {
            for (int dir = 0; dir < 2; dir++) {
                int s = side;
                int d = dir;
                String name = (dir == 0 ? "tune.rcvbuf." : "tune.sndbuf.") + sides[side];
                registry.table(GlobalModule.KEYWORDS).add(name, (g, l) -> {
                    Args.noMoreThan(l, 1, name);
                    // As HAProxy's atol: "16k" is 16; a negative value is the system's default here.
                    g.model().part(GlobalBuffers.class, GlobalBuffers::new).sizes[s][d] =
                            (int) Math.max(0, Args.atol(Args.required(l, 1, name, "an integer argument")));
                });
            }
        }
        registry.check(ConnModule::resolve);
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
        server.add("source", 1, (s, l) -> {
            if (l.arg(2).equals("usesrc") || l.arg(2).equals("interface")) {
                throw SourceAddress.unsupported(l.arg(2)); // what follows a source address is parsed with it, as by HAProxy
            }
            s.part(SourceAddress.OnServer.class, SourceAddress.OnServer::new).address = SourceAddress.parse(l.arg(1), true);
        });
        server.add("socks4", 1, (s, l) -> s.part(Socks4.OnServer.class, Socks4.OnServer::new).proxy = Socks4.parse(l.arg(1)));
        server.add("usesrc", 1, (s, l) -> {
            throw new ConfigException("'usesrc' only allowed after a 'source' statement..");
        });
    }

    /** A keepalive count (an integer, HAProxy's messages), or delay (a time in seconds). */
    private static int keepAliveTuning(ConfigLine l, String keyword, int place) throws ConfigException {
        if (!l.has(1)) {
            throw new ConfigException("'" + keyword + "' expects an integer value");
        }
        String v = l.arg(1);
        if (place > 0) {
            if (!Character.isDigit(v.charAt(0))) {
                throw new ConfigException("unexpected character '" + v.charAt(0) + "' in argument to <" + keyword + ">.");
            }
            long seconds = Units.time(v, keyword, TimeUnit.SECONDS, Long.MAX_VALUE);
            if (seconds > Integer.MAX_VALUE) { // (HAProxy's message says ms where it counts seconds)
                throw new ConfigException("timer overflow in argument '" + v + "' to '" + keyword
                        + "' (maximum value is 2147483647 ms or ~24.8 days)");
            }
            return (int) seconds;
        }
        int start = v.startsWith("-") ? 1 : 0;
        int i = start;
        while (i < v.length() && Character.isDigit(v.charAt(i))) {
            i++;
        }
        if (i < v.length() || i == start) {
            throw new ConfigException("'" + keyword + "' : unexpected character '" + (i < v.length() ? v.charAt(i) : "") + "' in integer value '" + v + "'");
        }
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Long.parseLong(v.length() > 12 ? v.substring(0, 12) : v)));
    }

    /** The global socket buffer sizes, {@code [client|server][receive|send]}. */
    private static final class GlobalBuffers {
        final int[][] sizes = new int[2][2];
    }

    /**
     * What a proxy's sockets get from the whole configuration: the global buffer sizes, and {@code option
     * tcp-smart-accept}, on by default in HTTP frontends as in HAProxy.
     */
    private static void resolve(ConfigModel model, Diagnostics diag) {
        int[][] buffers = model.part(GlobalBuffers.class, GlobalBuffers::new).sizes;
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            SocketOptions o = of(p);
            if (o.smartAccept == null) {
                o.smartAccept = p.mode == Mode.HTTP;
            }
            System.arraycopy(buffers[0], 0, o.clientBuffers, 0, 2);
            System.arraycopy(buffers[1], 0, o.serverBuffers, 0, 2);
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
