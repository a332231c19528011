package io.fulcrum.compression;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.Locale;

/** HTTP response compression: the {@code compression} keyword and the {@code res.comp}, {@code res.comp_algo} fetches. */
public final class CompressionModule implements Module {

    @Override
    public void register(Registry registry) {
        registry.table(ProxyModule.KEYWORDS).add("compression", Capability.ALL, CompressionModule::parse);
        SampleCatalog c = SampleCatalog.of(registry);
        c.fetch(new Fetch("res.comp", ArgSpec.NONE, SampleType.BOOL, Source.HRSHP,
                (a, ctx, out) -> ctx.request() != null && out.setBool(ctx.compressedWith() != null)));
        c.fetch(new Fetch("res.comp_algo", ArgSpec.NONE, SampleType.STR, Source.HRSHP, (a, ctx, out) -> {
            Algo algo = ctx.compressedWith();
            return algo != null && out.setStr(algo.configName());
        }));
    }

    /** The settings of a proxy, or null when it has no {@code compression} line (nor its defaults). */
    public static Compression of(ProxySpec p) {
        return p.partOrNull(Compression.class);
    }

    /** HAProxy's messages, as it prints them (without a caret; the doubled location of a missing algorithm too). */
    private static void parse(ProxySpec p, ConfigLine l) throws ConfigException {
        Compression comp = p.part(Compression.class, Compression::new);
        switch (l.arg(1)) {
            case "algo" -> {
                if (!l.has(2)) {
                    throw new ConfigException("parsing [" + l.source() + "] : 'compression' expects <algorithm>.");
                }
                for (int i = 2; l.has(i); i++) {
                    Algo a = Algo.named(l.arg(i));
                    if (a == null) {
                        throw new ConfigException("'compression' : '" + l.arg(i) + "' is not a supported algorithm.");
                    }
                    comp.algos.add(a);
                }
            }
            case "type" -> {
                if (!l.has(2)) {
                    throw new ConfigException("'compression' expects <type>.");
                }
                for (int i = 2; l.has(i); i++) {
                    comp.types.add(l.arg(i).toLowerCase(Locale.ROOT));
                }
            }
            case "offload" -> {
                if (p.kind() == ProxyKind.DEFAULTS) {
                    l.warn("'compression' : 'offload' ignored in 'defaults' section.");
                } else {
                    comp.offload = true;
                }
            }
            default -> throw new ConfigException("'compression' expects 'algo', 'type' or 'offload'");
        }
    }
}
