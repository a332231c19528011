package io.fulcrum.compression;

import io.fulcrum.cache.CacheFilters;
import io.fulcrum.cache.CacheModule;
import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.Locale;

/**
 * HTTP response compression: the {@code compression}, {@code filter} and {@code tune.comp.maxlevel} keywords and the
 * {@code res.comp}, {@code res.comp_algo} fetches. {@code filter} is here because compression is the first of
 * Fulcrum's filters: {@code filter cache} is handed to the cache; the others HAProxy 2.6 knows are refused by name.
 */
public final class CompressionModule implements Module {
    /** HAProxy 2.6's filters (its list, in its order), as its "unknown keyword" message lists them. */
    private static final String[][] FILTERS = {{"CACHE", "cache"}, {"COMP", "compression"}, {"FCGI", "fcgi-app"},
        {"  OT", "opentracing"}, {"SPOE", "spoe"}, {"TRACE", "trace"}};

    @Override
    public void register(Registry registry) {
        registry.table(ProxyModule.KEYWORDS).add("compression", Capability.ALL, CompressionModule::parse);
        registry.table(ProxyModule.KEYWORDS).add("filter", Capability.ALL, CompressionModule::filter);
        registry.table(GlobalModule.KEYWORDS).add("tune.comp.maxlevel", (g, l) -> {
            String text = l.has(1) ? l.arg(1) : "";
            if (l.has(2) || !text.matches("[1-9]")) {
                throw new ConfigException("'tune.comp.maxlevel' expects a numeric value between 1 and 9");
            }
            CompressionSettings.of(g.model()).maxLevel = text.charAt(0) - '0';
        });
        zlibParameter(registry, "tune.zlib.memlevel", 1, 9, 8);
        zlibParameter(registry, "tune.zlib.windowsize", 8, 15, 15);
        registry.table(GlobalModule.KEYWORDS).add("maxcomprate", (g, l) -> {
            // HAProxy reads a word without digits as 0 (no limit); Fulcrum refuses it.
            String text = Args.required(l, 1, "maxcomprate", "an integer argument in kb/s");
            Args.noMoreThan(l, 1, "maxcomprate");
            if (!text.matches("[0-9]{1,9}")) {
                throw new ConfigException("'maxcomprate' expects an integer argument in kb/s.");
            }
            CompressionSettings.of(g.model()).rateLimit = Long.parseLong(text) * 1024;
        });
        registry.table(GlobalModule.KEYWORDS).add("maxcompcpuusage", (g, l) -> {
            String text = Args.required(l, 1, "maxcompcpuusage", "an integer argument between 0 and 100");
            Args.noMoreThan(l, 1, "maxcompcpuusage");
            if (!text.matches("[0-9]{1,9}")) {
                throw new ConfigException("'maxcompcpuusage' expects an integer argument between 0 and 100.");
            }
            // As HAProxy: above 100 is no limit.
            CompressionSettings.of(g.model()).maxCpuUsage = (int) Math.min(100, Long.parseLong(text));
        });
        registry.table(GlobalModule.KEYWORDS).add("maxzlibmem", (g, l) -> {
            Args.noMoreThan(l, 1, "maxzlibmem");
            // As HAProxy: C's atol, in megabytes ("abc" is 0, no limit; a negative value is no limit either).
            long mb = Args.atol(Args.required(l, 1, "maxzlibmem", "an integer argument"));
            CompressionSettings.of(g.model()).maxZlibMem = mb * 1024 * 1024;
        });
        registry.check((model, diag) -> {
            CompressionSettings settings = CompressionSettings.of(model);
            CompressionRate.limit(settings.rateLimit);
            ZlibMemory.limit(settings.maxZlibMem);
            CompressionRate.cpuLimit(settings.maxCpuUsage, GlobalModule.settings(model).effectiveNbthread());
            int level = settings.maxLevel;
            for (ProxySpec p : ProxyTable.of(model).proxies()) {
                Compression c = of(p);
                if (c != null) {
                    c.level = level;
                }
            }
        });
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

    /**
     * {@code filter <name> [param*]}: {@code filter compression} says where compression runs among the filters (it
     * must come after a cache's); {@code filter cache} is the cache's; the other filters of HAProxy 2.6 are refused
     * by name.
     */
    /** The filters {@code filter} takes, as HAProxy's {@code -dKflt} lists them: "cache [CACHE]". */
    public static java.util.List<String> filters() {
        return java.util.stream.Stream.of(FILTERS).filter(f -> f[1].equals("cache") || f[1].equals("compression"))
                .map(f -> f[1] + " [" + f[0].strip() + "]").toList();
    }

    private static void filter(ProxySpec p, ConfigLine l) throws ConfigException {
        String at = "parsing [" + l.source() + "] : ";
        if (p.kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException(at + "filter is not allowed in a 'default' section.");
        }
        if (!l.has(1)) {
            throw new ConfigException(at + "missing argument for 'filter' in " + p.describe() + ".");
        }
        String name = l.arg(1);
        if (name.equals("compression")) {
            if (l.has(2)) {
                throw new ConfigException("'filter compression' : unknown keyword '" + l.arg(2) + "'.");
            }
            CacheFilters.compression(p);
            return;
        }
        if (name.equals("cache")) {
            CacheModule.filter(p, l);
            return;
        }
        StringBuilder known = new StringBuilder();
        for (String[] f : FILTERS) {
            if (f[1].equals(name)) {
                throw new ConfigException("'filter " + name + "' is not supported by Fulcrum (its filters are "
                        + "'cache' and 'compression').");
            }
            known.append("\n    [").append(f[0]).append("] ").append(f[1]);
        }
        throw new ConfigException("'filter' : unknown keyword '" + name + "'. Registered keywords :" + known);
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

    /**
     * A zlib parameter of HAProxy's zlib build, checked with its message. java.util.zip's Deflater always uses zlib's
     * defaults (memLevel 8, windowBits 15): another value is accepted with a warning that says it is not applied.
     */
    private static void zlibParameter(Registry registry, String keyword, int min, int max, int applied) {
        registry.table(GlobalModule.KEYWORDS).add(keyword, (g, l) -> {
            Args.noMoreThan(l, 1, keyword);
            long v = Args.atol(l.arg(1));
            if (l.arg(1).isEmpty() || v < min || v > max) {
                throw new ConfigException("'" + keyword + "' expects a numeric value between " + min + " and " + max + ".");
            }
            if (v != applied) {
                l.warn("'" + keyword + "' " + v + " is not applied: Fulcrum's zlib (java.util.zip) always uses " + applied + ".");
            }
        });
    }
}
