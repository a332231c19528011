package io.fulcrum.resolvers;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.conn.IpNetwork;
import io.fulcrum.server.ServerSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A server's DNS settings: {@code resolvers}, {@code resolve-prefer}, {@code resolve-opts} and {@code resolve-net}
 * (configuration.txt 5.2), with HAProxy's messages.
 */
final class ServerResolve implements ServerSpec.ServerPart {
    /** The section's name, or null when the server is not resolved at run time. */
    String resolvers;
    /** {@code resolve-prefer}: IPv6 unless told otherwise, as HAProxy. */
    boolean preferIpv4;
    /** {@code resolve-opts allow-dup-ip}: may take an address another server of the backend with the same name has. */
    boolean allowDupIp;
    /** {@code resolve-opts ignore-weight}: an SRV record's weight leaves the configured one. */
    boolean ignoreWeight;
    /** {@code resolve-net}: the networks whose addresses are taken first. */
    List<IpNetwork> nets = List.of();

    static void register(KeywordTable<ServerSpec> options) {
        options.add("resolvers", 1, (s, l) -> {
            of(s).resolvers = l.arg(1);
            s.resolvedAtRunTime = true;
        });
        options.add("resolve-prefer", 1, (s, l) -> {
            switch (l.arg(1)) {
                case "ipv4" -> of(s).preferIpv4 = true;
                case "ipv6" -> of(s).preferIpv4 = false;
                default -> throw new ConfigException("'resolve-prefer' expects either ipv4 or ipv6 as argument..");
            }
        });
        options.add("resolve-opts", 1, (s, l) -> {
            for (String opt : l.arg(1).isEmpty() ? new String[0] : l.arg(1).split(",", -1)) { // HAProxy takes an empty list
                switch (opt) {
                    case "allow-dup-ip" -> of(s).allowDupIp = true;
                    case "prevent-dup-ip" -> of(s).allowDupIp = false;
                    case "ignore-weight" -> of(s).ignoreWeight = true;
                    default -> throw new ConfigException("'resolve-opts' : unknown resolve-opts option '" + opt
                            + "', supported methods are 'allow-dup-ip', 'ignore-weight', and 'prevent-dup-ip'..");
                }
            }
        });
        options.add("resolve-net", 1, (s, l) -> {
            List<IpNetwork> nets = new ArrayList<>();
            for (String n : l.arg(1).split(",", -1)) {
                IpNetwork net = IpNetwork.parse(n);
                if (net == null) {
                    throw new ConfigException("'resolve-net' invalid network '" + n + "'..");
                }
                nets.add(net);
            }
            of(s).nets = List.copyOf(nets);
        });
    }

    static ServerResolve of(ServerSpec s) {
        return s.part(ServerResolve.class, ServerResolve::new);
    }

    @Override
    public ServerResolve copy() {
        ServerResolve c = new ServerResolve();
        c.resolvers = resolvers;
        c.preferIpv4 = preferIpv4;
        c.allowDupIp = allowDupIp;
        c.ignoreWeight = ignoreWeight;
        c.nets = nets;
        return c;
    }
}
