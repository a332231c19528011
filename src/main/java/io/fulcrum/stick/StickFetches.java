package io.fulcrum.stick;

import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

/**
 * The stick-table fetches and converters: {@code sc_*(<sc>[,<table>])}, {@code sc0_*}..{@code sc2_*([<table>])} read
 * the tracked entries; {@code src_*(<table>)} the client address's entry; {@code table_avl}, {@code table_cnt};
 * {@code in_table(<table>)} and {@code table_*(<table>)} the entry of the converted sample.
 */
final class StickFetches {
    private static final Arg[] NO_ARGS = new Arg[0];

    private final Registry registry;
    private final StickTables tables;
    private final SampleCatalog catalog;

    private StickFetches(Registry registry, StickTables tables) {
        this.registry = registry;
        this.tables = tables;
        this.catalog = SampleCatalog.of(registry);
    }

    static void register(Registry registry, StickTables tables) {
        new StickFetches(registry, tables).register();
        // A table that does not exist is reported with the other argument resolution errors; a left-out one is the
        // proxy's where the expression is.
        ArgResolution.of(registry).resolver(ArgType.TAB, (name, where, model) -> {
            String table = name.isEmpty() ? where.name() : name;
            return tables.get(table) != null ? null : "unable to find table '" + table + "'";
        });
    }

    private void register() {
        for (Counter c : Counter.values()) {
            if (c != Counter.SERVER_ID && c != Counter.UPDT_CONN_CNT) {
                tracked(c.text(), c.indexed(), (t, e, idx, out) -> c.apply(t, e, idx, out));
            }
            if (c != Counter.SERVER_ID && c != Counter.TRACKERS) {
                source(c);
            }
            if (!c.creates()) {
                converter(c);
            }
        }
        tracked("tracked", false, null);
        catalog.fetch(new Fetch("table_avl", ArgSpec.of(1, ArgType.TAB), SampleType.SINT, Source.INTRN,
                (a, ctx, out) -> out.setSint(table(a[0]).size() - table(a[0]).used()), check("table_avl", 0)));
        catalog.fetch(new Fetch("table_cnt", ArgSpec.of(1, ArgType.TAB), SampleType.SINT, Source.INTRN,
                (a, ctx, out) -> out.setSint(table(a[0]).used()), check("table_cnt", 0)));
        catalog.converter(new Converter("in_table", ArgSpec.of(1, ArgType.TAB), SampleType.ANY, SampleType.BOOL, (a, smp, ctx) -> {
            StickTable t = table(a[0]);
            return smp.cast(t.type().sampleType()) && smp.setBool(t.lookup(t.key(smp)) != null);
        }, check("in_table", 0, true)));
        expiry("table_expire", false);
        expiry("table_idle", true);
    }

    /** Reads an entry for a fetch or converter: {@code e} is null when the key has none. */
    @FunctionalInterface
    private interface Read {
        boolean read(StickTable t, Entry e, int idx, Sample out);
    }

    /** {@code sc_<name>(<sc>[,<table>])} (with an element index first when indexed) and {@code sc0_<name>([<table>])}... */
    private void tracked(String name, boolean indexed, Read read) {
        int first = indexed ? 2 : 1;
        ArgType[] types = indexed ? new ArgType[] {ArgType.SINT, ArgType.SINT, ArgType.TAB} : new ArgType[] {ArgType.SINT, ArgType.TAB};
        Source src = name.startsWith("kbytes") ? Source.L4CLI : Source.INTRN; // as HAProxy declares them
        catalog.fetch(new Fetch("sc_" + name, ArgSpec.of(first, types), name.equals("tracked") ? SampleType.BOOL : SampleType.SINT, src,
                (a, ctx, out) -> counter(ctx, (int) a[first - 1].num(), a.length > first ? a[first] : null, indexed ? (int) a[0].num() : 0,
                        read, out), check("sc_" + name, first)));
        if (indexed) {
            return;
        }
        for (int n = 0; n < Trackers.COUNTERS; n++) {
            int sc = n;
            String fname = "sc" + n + "_" + name;
            catalog.fetch(new Fetch(fname, ArgSpec.of(0, ArgType.TAB), name.equals("tracked") ? SampleType.BOOL : SampleType.SINT, src,
                    (a, ctx, out) -> counter(ctx, sc, a.length > 0 ? a[0] : null, 0, read, out), check(fname, 0)));
        }
    }

    /** A tracked counter's entry, or the entry of its key in another table; read null for sc_tracked. */
    private static boolean counter(SampleContext ctx, int sc, Arg table, int idx, Read read, Sample out) {
        Trackers trackers = sc >= 0 && sc < Trackers.COUNTERS ? Trackers.of(ctx) : null;
        Trackers.Tracked tr = trackers == null ? null : trackers.get(sc);
        if (read == null) {
            return out.setBool(tr != null);
        }
        if (tr == null) {
            return out.setSint(0);
        }
        if (table == null) {
            return read.read(tr.table(), tr.entry(), idx, out);
        }
        StickTable t = table(table);
        return read.read(t, t.lookup(tr.entry().key), idx, out);
    }

    /** {@code src_<name>(<table>)}, with an element index first when indexed: the entry of the client's address. */
    private void source(Counter c) {
        String name = "src_" + c.text();
        int tab = c.indexed() ? 1 : 0;
        ArgSpec args = c.indexed() ? ArgSpec.of(2, ArgType.SINT, ArgType.TAB) : ArgSpec.of(1, ArgType.TAB);
        catalog.fetch(new Fetch(name, args, SampleType.SINT, Source.L4CLI, (a, ctx, out) -> {
            StickTable t = table(a[tab]);
            Sample key = new Sample();
            if (!catalog.fetch("src").fn().fetch(NO_ARGS, ctx, key) || !key.cast(t.type().sampleType())) {
                return false;
            }
            Object k = t.key(key);
            return c.apply(t, c.creates() ? t.getOrCreate(k) : t.lookup(k), c.indexed() ? (int) a[0].num() : 0, out);
        }, check(name, tab)));
    }

    /** {@code table_<name>(<table>)}, with an element index first when indexed: the entry of the input sample. */
    private void converter(Counter c) {
        String name = "table_" + c.text().replace("get_", "");
        int tab = c.indexed() ? 1 : 0;
        ArgSpec args = c.indexed() ? ArgSpec.of(2, ArgType.SINT, ArgType.TAB) : ArgSpec.of(1, ArgType.TAB);
        catalog.converter(new Converter(name, args, SampleType.ANY, SampleType.SINT, (a, smp, ctx) -> {
            StickTable t = table(a[tab]);
            return smp.cast(t.type().sampleType()) && c.apply(t, t.lookup(t.key(smp)), c.indexed() ? (int) a[0].num() : 0, smp);
        }, check(name, tab, true)));
    }

    /**
     * {@code table_expire(<table>[,<default>])}: the ms before the input's entry expires; {@code table_idle}: the ms
     * since it was last touched. Without an entry, the default, else no result.
     */
    private void expiry(String name, boolean idle) {
        catalog.converter(new Converter(name, ArgSpec.of(1, ArgType.TAB, ArgType.SINT), SampleType.ANY, SampleType.SINT, (a, smp, ctx) -> {
            StickTable t = table(a[0]);
            Entry e = smp.cast(t.type().sampleType()) ? t.lookup(t.key(smp)) : null;
            if (e == null) {
                return a.length > 1 && smp.setSint(a[1].num());
            }
            long remain = t.expire() == 0 ? 0 : Math.max(0, e.expire - StickTable.now());
            return smp.setSint(idle ? t.expire() - remain : remain);
        }, check(name, 0, true)));
    }

    private static StickTable table(Arg a) {
        return a.as(TableRef.class).get();
    }

    /** Replaces the table argument at {@code pos}, when given, by a reference resolved once the proxies are known. */
    private Fetch.ArgCheck check(String keyword, int pos) {
        return check(keyword, pos, false);
    }

    private Fetch.ArgCheck check(String keyword, int pos, boolean converter) {
        return args -> {
            if (pos < args.length) {
                String what = "in arg " + (pos + 1) + " of " + (converter ? "conversion" : "sample fetch") + " keyword '" + keyword + "'";
                TableRef ref = tables.ref(args[pos].text(), registry.parsing(), what, null);
                args[pos] = new Arg(ArgType.TAB, args[pos].text(), 0, ref);
            }
        };
    }
}
