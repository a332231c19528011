package io.fulcrum.cache;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.rules.ActionArgs;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.rules.Verdict;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;
import io.fulcrum.stats.Counters;

import java.util.ArrayList;
import java.util.List;

/**
 * HAProxy's small object cache (configuration.txt section 6): the {@code cache} section, the
 * {@code http-request cache-use} and {@code http-response cache-store} actions, {@code filter cache}, the
 * {@code res.cache_hit} and {@code res.cache_name} fetches and {@code show cache}, with HAProxy 2.6's messages.
 */
public final class CacheModule implements Module {
    static final TableKey<CacheSection> SECTION_KEYWORDS = new TableKey<>("cache");

    @Override
    public void register(Registry registry) {
        KeywordTable<CacheSection> keywords = registry.table(SECTION_KEYWORDS);
        keywords.add("total-max-size", CacheModule::totalMaxSize);
        keywords.add("max-object-size", (c, l) -> c.maxObjectSize = number(c, l, "a maximum file size parameter in bytes", false));
        keywords.add("max-secondary-entries", (c, l) -> c.maxSecondaryEntries = (int) number(c, l, "a strictly positive number", true));
        keywords.add("max-age", CacheModule::maxAge);
        keywords.add("process-vary", CacheModule::processVary);
        registry.section("cache", (header, model) -> open(header, model, keywords));

        HttpActions actions = HttpActions.of(registry);
        actions.add("cache-use", a -> {
            CacheFilters.Filter f = filter(a);
            String proxy = a.proxy().name();
            return (txn, msg) -> {
                int outcome = txn.cache().use(f.cache, txn.request());
                if (outcome != CacheTxn.SKIPPED) {
                    // counted by the proxy of the rule, as HAProxy: its frontend's counters, else its backend's
                    Counters counters = txn.frontend().name().equals(proxy) ? txn.frontend().counters() : txn.backend().counters();
                    counters.increment(Counters.Count.CACHE_LOOKUPS);
                    if (outcome == CacheTxn.HIT) {
                        counters.increment(Counters.Count.CACHE_HITS);
                    }
                }
                return Verdict.CONTINUE;
            };
        }, Phase.REQUEST);
        actions.add("cache-store", a -> {
            CacheFilters.Filter f = filter(a);
            String proxy = a.proxy().name();
            return (txn, msg) -> {
                // The body is stored as it was before compression (the cache's filter comes first in its proxy), but a
                // frontend's compression comes before a backend's cache: then nothing is stored, as in HAProxy.
                boolean compressedFirst = txn.compressedWith() != null && txn.frontend().compression() != null
                        && !txn.frontend().name().equals(proxy);
                if (!compressedFirst) {
                    txn.cache().store(f.cache, txn.request(), (ResponseHead) msg);
                }
                return Verdict.CONTINUE;
            };
        }, Phase.RESPONSE);

        SampleCatalog c = SampleCatalog.of(registry);
        c.fetch(new Fetch("res.cache_hit", ArgSpec.NONE, SampleType.BOOL, Source.HRSPX,
                (a, ctx, out) -> out.setBool(ctx.cacheName() != null)));
        c.fetch(new Fetch("res.cache_name", ArgSpec.NONE, SampleType.STR, Source.HRSPX, (a, ctx, out) -> {
            String name = ctx.cacheName();
            return name != null && out.setStr(name);
        }));

        List<HttpCache> caches = new ArrayList<>();
        CliCommands.of(registry).add("show cache", "show cache", "show cache status", CliLevel.ADMIN, r -> {
            StringBuilder out = new StringBuilder();
            caches.forEach(cache -> cache.show(out));
            r.print(out);
        });
        registry.check((model, diag) -> resolve(model, diag, caches));
    }

    /**
     * {@code filter cache <name>} (the {@code filter} keyword's parser hands it here): declares where the cache
     * filter stands among the proxy's filters.
     */
    public static void filter(ProxySpec p, ConfigLine l) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("'filter' : 'cache : expects a <name> argument'");
        }
        if (l.has(3)) {
            throw new ConfigException("'filter cache' : unknown keyword '" + l.arg(3) + "'.");
        }
        CacheFilters.of(p).explicit(p, l.arg(2));
    }

    /** The cache filter a rule uses: the proxy's filter for the cache it names (declared implicitly if need be). */
    private static CacheFilters.Filter filter(ActionArgs a) throws ConfigException {
        String name = a.next();
        if (name.isEmpty()) {
            throw new ConfigException("expects a cache name");
        }
        if (a.proxy().kind() == ProxyKind.DEFAULTS) {
            throw new ConfigException("caches are not supported by Fulcrum in defaults sections (use the rule in the proxies)");
        }
        return CacheFilters.of(a.proxy()).implicit(name); // (not cut: a name longer than 32 names no cache, as in HAProxy)
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<CacheSection> keywords) throws ConfigException {
        if (!header.has(1)) {
            throw new ConfigException("'cache' expects a <name> argument");
        }
        Args.noMoreThan(header, 1, "cache");
        String name = header.arg(1).substring(0, Math.min(header.arg(1).length(), CacheSection.MAX_NAME));
        if (name.length() < header.arg(1).length()) {
            header.warn("cache name is limited to 32 characters, truncate to '" + name + "'.");
        }
        CacheSections sections = CacheSections.of(model);
        if (sections.byName.containsKey(name)) {
            throw ConfigException.unspaced("Duplicate cache name '" + name + "'.");
        }
        CacheSection section = new CacheSection(name, header.source());
        return new SectionParser() {
            @Override
            public void line(ConfigLine line) throws ConfigException {
                KeywordTable.Entry<CacheSection> e = keywords.find(line.keyword());
                if (e == null) {
                    throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'cache' section");
                }
                e.parser().parse(section, line);
            }

            @Override
            public void end() throws ConfigException {
                if (section.maxBlocks <= 0) {
                    throw new ConfigException("Size not specified for cache '" + name + "'");
                }
                long half = section.maxBlocks * CacheSection.BLOCK_SIZE / 2;
                if (section.maxObjectSize == 0) {
                    section.maxObjectSize = section.maxBlocks * CacheSection.BLOCK_SIZE >> 8;
                } else if (section.maxObjectSize > half) {
                    throw new ConfigException("\"max-object-size\" is limited to an half of \"total-max-size\" => " + half);
                }
                sections.byName.put(name, section);
            }
        };
    }

    private static void totalMaxSize(CacheSection c, ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        long mb = digits(l.arg(1));
        if (mb < 0) {
            throw ConfigException.unspaced("total-max-size wrong value '" + l.arg(1) + "'");
        }
        if (mb > CacheSection.MAX_MEGABYTES) {
            throw ConfigException.unspaced("\"total-max-size\" (" + l.arg(1) + ") must not be greater than " + CacheSection.MAX_MEGABYTES);
        }
        c.maxBlocks = mb * 1024 * 1024 / CacheSection.BLOCK_SIZE;
    }

    /** {@code max-object-size}, {@code max-secondary-entries}: a number (strictly positive when {@code positive}). */
    private static long number(CacheSection c, ConfigLine l, String what, boolean positive) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        if (l.arg(1).isEmpty()) {
            l.warn("'" + l.keyword() + "' expects " + what + ".");
        }
        long n = digits(l.arg(1));
        if (n < 0 || n > 0xffffffffL || positive && n == 0) {
            throw ConfigException.unspaced(l.keyword() + " wrong value '" + l.arg(1) + "'");
        }
        return n;
    }

    /** {@code max-age}: HAProxy reads any word as a number (atoi); Fulcrum wants one, and warns of a missing one as HAProxy. */
    private static void maxAge(CacheSection c, ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        String what = "'max-age' expects an age parameter in seconds.";
        if (l.arg(1).isEmpty()) {
            l.warn(what);
            c.maxAge = 0;
            return;
        }
        long n = digits(l.arg(1));
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new ConfigException(what);
        }
        c.maxAge = n;
    }

    private static void processVary(CacheSection c, ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 1, l.keyword());
        String what = "'process-vary' expects \"on\" or \"off\" (enable or disable vary processing).";
        if (l.arg(1).isEmpty()) {
            l.warn(what); // (HAProxy says it twice: once for the missing word, once for the word it is not)
        }
        switch (l.arg(1)) {
            case "on" -> c.processVary = true;
            case "off" -> c.processVary = false;
            default -> l.warn(what);
        }
    }

    /** The value of a word of decimal digits, or -1 (or more than 18 digits). */
    private static long digits(String s) {
        if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return -1;
        }
        return Long.parseLong(s);
    }

    /** Builds the stores, and gives each cache filter its own, with HAProxy's checks of the filters' order. */
    private static void resolve(ConfigModel model, Diagnostics diag, List<HttpCache> caches) {
        CacheSections sections = CacheSections.of(model);
        for (CacheSection s : sections.byName.values()) {
            s.store = new HttpCache(s);
            caches.add(s.store);
        }
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            CacheFilters filters = p.partOrNull(CacheFilters.class);
            if (filters == null) {
                continue;
            }
            for (Object o : filters.order) {
                if (!(o instanceof CacheFilters.Filter f)) {
                    continue;
                }
                CacheSection s = sections.byName.get(f.name);
                if (s == null) {
                    diag.configAlert("config: " + p.describe() + ": unable to find the cache '" + f.name + "' referenced by the filter 'cache'.");
                } else if (filters.compressionBefore(f)) {
                    diag.configAlert("config: " + p.describe() + ": unable to enable the compression filter before the cache '" + f.name + "'.");
                } else {
                    f.cache = s.store;
                }
            }
        }
    }
}
