package io.fulcrum.acl.map;

import io.fulcrum.Modules;
import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.PatternFiles;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A map changed in place ({@link PatternFile}'s layered indexes) against a model: the list of its entries in order,
 * looked up by a plain scan with the method's rule (the first equal key for "str", the first in order for "int" and "reg", the
 * longest prefix then the first of equals for "beg" and "ip"). Random adds, sets and deletes (by key and by reference)
 * on keys drawn from a small set, so that keys repeat and prefixes nest; now and then a clear, or a prepared version
 * committed; after each change, lookups through the converter and through the CLI's "get map" agree with the model.
 * With tiny tiers of added entries, the same changes go through every level of tiers, merged and folded into the base.
 */
class MapChangesTest {
    private record Line(String key, String value) {
    }

    private enum Kind {
        STR("str(x)"), BEG("str(x)"), REG("str(x)"), INT("int(0)"), IP("ipv4(0.0.0.0)");

        final String fetch;

        Kind(String fetch) {
            this.fetch = fetch;
        }
    }

    /** Each kind of map (jqwik draws the kinds evenly), its initial file's size and the seed of its changes. */
    @Property(tries = 100)
    void aMapChangedInPlaceFollowsTheModel(@ForAll Kind kind, @ForAll long seed, @ForAll @IntRange(max = 300) int initial) throws Exception {
        int deepest = run(kind, seed, kind == Kind.INT || kind == Kind.REG ? initial / 3 : initial, PatternFile.Tiering.DEFAULT);
        assertThat(deepest).isLessThanOrEqualTo(1); // 256 additions at most before a rebuild: tiers of 128 and 2048
    }

    /**
     * Tiers of 2, 4, 8... entries folded into the base past 40 or half its entries: the additions go through five
     * levels of tiers between rebuilds, each tier no bigger than its level allows, the older tiers of higher levels.
     */
    @Property(tries = 60)
    void aMapWithTinyTiersFollowsTheModel(@ForAll Kind kind, @ForAll long seed, @ForAll @IntRange(max = 120) int initial) throws Exception {
        int deepest = run(kind, seed, kind == Kind.INT || kind == Kind.REG ? initial / 3 : initial, new PatternFile.Tiering(2, 2, 2, 40));
        assertThat(deepest).isGreaterThanOrEqualTo(3);
    }

    /** Runs the changes; returns the highest level of tiers seen. */
    private static int run(Kind kind, long seed, int initial, PatternFile.Tiering tiering) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Line> model = new ArrayList<>();
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < initial; i++) {
            Line l = new Line(key(kind, rnd), Integer.toString(rnd.nextInt(1000)));
            model.add(l);
            file.append(l.key()).append(' ').append(l.value()).append('\n');
        }
        Path p = Files.createTempFile("fulcrum-map-changes", ".map");
        try {
            Files.write(p, file.toString().getBytes(StandardCharsets.ISO_8859_1));
            Registry registry = Registry.of(Modules.ALL);
            ExprParser parser = new ExprParser(SampleCatalog.of(registry));
            String method = kind.name().toLowerCase();
            Expr.Step map = parser.parse(kind.fetch + ",map_" + method + "(" + p + ",none)").steps().get(0);
            Expr.Step ints = parser.parse(kind.fetch + ",map_" + method + "_int(" + p + ",-1)").steps().get(0);
            PatternFile f = PatternFiles.of(registry).get(p.toString());
            f.tiering(tiering);
            int deepest = -1;
            for (int step = 0; step < 700; step++) {
                change(kind, rnd, f, model);
                deepest = Math.max(deepest, checkTiers(f.tiers(), tiering));
                assertThat(f.entries()).extracting(e -> new Line(e.key(), e.value())).as("step %d", step).containsExactlyElementsOf(model);
                for (int i = 0; i < 12; i++) {
                    String probe = probe(kind, rnd);
                    Line want = find(kind, model, probe);
                    assertThat(lookup(kind, map, probe)).as("step %d, %s", step, probe).isEqualTo(want == null ? "none" : want.value());
                    assertThat(lookup(kind, ints, probe)).isEqualTo(want == null ? "-1" : want.value());
                    for (PatternFile.Match m : f.lookup(probe)) {
                        assertThat(m.entry() == null ? null : new Line(m.entry().key(), m.entry().value())).isEqualTo(want);
                    }
                }
            }
            return deepest;
        } finally {
            Files.delete(p);
        }
    }

    /** The tiers, oldest first, are of decreasing levels, none holding more than its level allows; returns the highest level. */
    private static int checkTiers(List<int[]> tiers, PatternFile.Tiering tiering) {
        int previous = Integer.MAX_VALUE;
        for (int[] t : tiers) {
            assertThat(t[0]).isLessThan(previous);
            long capacity = tiering.small() * (long) Math.pow(tiering.ratio(), t[0]);
            assertThat(t[1]).isPositive().isLessThanOrEqualTo((int) capacity);
            previous = t[0];
        }
        return tiers.isEmpty() ? -1 : tiers.getFirst()[0];
    }

    /** One random change, made to the file and to the model. */
    private static void change(Kind kind, SplittableRandom rnd, PatternFile f, List<Line> model) throws ConfigException {
        int what = rnd.nextInt(100);
        String key = rnd.nextInt(4) == 0 && !model.isEmpty() ? model.get(rnd.nextInt(model.size())).key() : key(kind, rnd);
        String value = Integer.toString(rnd.nextInt(1000));
        if (what < 45) {
            f.add(f.currentVersion(), List.<String[]>of(new String[] {key, value}));
            model.add(new Line(key, value));
        } else if (what < 65) {
            int n = f.setValue(PatternFile.keyed(key), value);
            int expected = 0;
            for (int i = 0; i < model.size(); i++) {
                if (model.get(i).key().equals(key)) {
                    model.set(i, new Line(key, value));
                    expected++;
                }
            }
            assertThat(n).isEqualTo(expected);
        } else if (what < 80) {
            int n = f.remove(PatternFile.keyed(key));
            int before = model.size();
            model.removeIf(l -> l.key().equals(key));
            assertThat(n).isEqualTo(before - model.size());
        } else if (what < 97) {
            if (!model.isEmpty()) {
                int i = rnd.nextInt(model.size());
                assertThat(f.remove(PatternFile.referenced(f.entries().get(i).ref()))).isEqualTo(1);
                model.remove(i);
            }
        } else if (what < 98) {
            f.clear(f.currentVersion());
            model.clear();
        } else {
            // A new version: a few of the entries and some new ones, matched once committed.
            int v = f.prepare();
            List<Line> next = new ArrayList<>();
            for (Line l : model) {
                if (rnd.nextBoolean()) {
                    next.add(l);
                }
            }
            for (int i = rnd.nextInt(20); i > 0; i--) {
                next.add(new Line(key(kind, rnd), Integer.toString(rnd.nextInt(1000))));
            }
            f.add(v, next.stream().map(l -> new String[] {l.key(), l.value()}).toList());
            f.add(f.currentVersion(), List.<String[]>of(new String[] {key, value})); // to the old version, dropped at commit
            assertThat(f.commit(v)).isTrue();
            model.clear();
            model.addAll(next);
        }
    }

    /** A key from a small set: IPv4 networks nesting in 10.0.0.0/22 (and a few IPv6 ones holding IPv4 addresses). */
    private static String key(Kind kind, SplittableRandom rnd) {
        return switch (kind) {
            case STR -> "k" + rnd.nextInt(40);
            case BEG -> "/a/b/c/d".substring(0, 1 + rnd.nextInt(8)) + (rnd.nextInt(3) == 0 ? "x" + rnd.nextInt(3) : "");
            case REG -> (rnd.nextBoolean() ? "^" : "") + "k" + rnd.nextInt(12) + (rnd.nextBoolean() ? "$" : "");
            case INT -> {
                int lo = rnd.nextInt(30);
                yield rnd.nextBoolean() ? Integer.toString(lo) : lo + ":" + (lo + rnd.nextInt(10));
            }
            case IP -> {
                int len = 20 + rnd.nextInt(13);
                int a = 0x0a000000 | rnd.nextInt(1 << 10);
                a &= -1 << (32 - len);
                yield rnd.nextInt(8) == 0 ? "::ffff:" + dotted(a) + "/" + (96 + len) : dotted(a) + "/" + len;
            }
        };
    }

    private static String probe(Kind kind, SplittableRandom rnd) {
        return switch (kind) {
            case STR -> "k" + rnd.nextInt(44);
            case REG -> (rnd.nextBoolean() ? "x" : "") + "k" + rnd.nextInt(14) + (rnd.nextBoolean() ? "y" : "");
            case BEG -> "/a/b/c/d/e".substring(0, 1 + rnd.nextInt(10)) + (rnd.nextInt(3) == 0 ? "x" + rnd.nextInt(3) : "");
            case INT -> Integer.toString(rnd.nextInt(45));
            case IP -> dotted(0x0a000000 | rnd.nextInt(1 << 11));
        };
    }

    private static String dotted(int a) {
        return (a >>> 24) + "." + (a >>> 16 & 255) + "." + (a >>> 8 & 255) + "." + (a & 255);
    }

    /** The line the method chooses for {@code probe}, by a scan of the model. */
    private static Line find(Kind kind, List<Line> model, String probe) {
        Line best = null;
        int bestRank = -1;
        for (Line l : model) {
            int rank = rank(kind, l.key(), probe);
            if (rank > bestRank) {
                best = l;
                bestRank = rank;
            }
        }
        return best;
    }

    /** How well {@code key} matches {@code probe}: -1 when not at all, else higher is preferred (then the first). */
    private static int rank(Kind kind, String key, String probe) {
        return switch (kind) {
            case STR -> key.equals(probe) ? 0 : -1;
            case BEG -> probe.startsWith(key) ? key.length() : -1;
            case REG -> java.util.regex.Pattern.compile(key).matcher(probe).find() ? 0 : -1;
            case INT -> {
                long v = Long.parseLong(probe);
                int colon = key.indexOf(':');
                boolean in = colon < 0 ? v == Long.parseLong(key)
                        : v >= Long.parseLong(key.substring(0, colon)) && v <= Long.parseLong(key.substring(colon + 1));
                yield in ? 0 : -1;
            }
            case IP -> {
                boolean v6 = key.startsWith("::ffff:");
                String net = v6 ? key.substring(7) : key;
                int slash = net.indexOf('/');
                int len = Integer.parseInt(net.substring(slash + 1)) - (v6 ? 96 : 0);
                int a = address(net.substring(0, slash));
                int mask = len == 0 ? 0 : -1 << (32 - len);
                // IPv4 networks first, then the IPv6 ones that hold the IPv4 address, each the longest first.
                yield (address(probe) & mask) == a ? (v6 ? 0 : 100) + len : -1;
            }
        };
    }

    private static int address(String dotted) {
        int a = 0;
        for (String o : dotted.split("\\.")) {
            a = a << 8 | Integer.parseInt(o);
        }
        return a;
    }

    /** The converter's output for {@code probe} (cast to the converter's input as the expression's fetch would give it). */
    private static String lookup(Kind kind, Expr.Step map, String probe) {
        Sample smp = new Sample();
        switch (kind) {
            case INT -> smp.setSint(Long.parseLong(probe));
            case IP -> smp.setIpv4(address(probe));
            default -> smp.setStr(probe);
        }
        Converter c = map.converter();
        return c.fn().convert(map.args(), smp, null) ? smp.asText() : "<none>";
    }
}
