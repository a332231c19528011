package io.fulcrum.backend;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Units;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.SampleCatalog;

import java.util.Set;

/** {@code balance} and {@code retries}: how a backend picks a server and how often it tries again. */
public final class BackendModule implements Module {

    /** The algorithms HAProxy documents for {@code balance}, so unimplemented ones get a precise error. */
    private static final Set<String> HAPROXY_ALGORITHMS = Set.of(
            "roundrobin", "static-rr", "leastconn", "first", "source", "uri", "url_param", "hdr", "random", "rdp-cookie");

    @Override
    public void register(Registry registry) {
        BackendFetches.register(SampleCatalog.of(registry));
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        keywords.add("balance", Capability.BE, (p, l) -> {
            String name = Args.required(l, 1, "balance", "an algorithm name");
            String base = name.contains("(") ? name.substring(0, name.indexOf('(')) : name;
            Algorithm algo = null;
            for (Algorithm a : Algorithm.values()) {
                if (a.keyword().equals(name)) {
                    algo = a;
                }
            }
            if (algo == null) {
                if (HAPROXY_ALGORITHMS.contains(base)) {
                    throw new ConfigException("'balance " + base + "' is not supported by Fulcrum yet (supported: roundrobin, static-rr).");
                }
                throw new ConfigException("'balance' : unknown load balancing algorithm '" + name + "'.");
            }
            Args.noMoreThan(l, 1, "balance " + name);
            spec(p).algorithm = algo;
        });
        keywords.add("retries", Capability.BE, (p, l) -> {
            Args.noMoreThan(l, 1, "retries");
            spec(p).retries = (int) Units.integer(Args.required(l, 1, "retries", "an integer argument"), "retries", 0, 100_000);
        });
    }

    static BalanceSpec spec(ProxySpec p) {
        return p.part(BalanceSpec.class, BalanceSpec::new);
    }
}
