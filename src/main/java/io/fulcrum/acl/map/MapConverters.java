package io.fulcrum.acl.map;

import io.fulcrum.acl.MatchMethod;
import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.PatternFiles;
import io.fulcrum.acl.PatternUse;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Source;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;

import java.util.List;
import java.util.function.Supplier;

/**
 * The map converters (configuration.txt 7.3.1): {@code map_<match>[_<output>](<file>[,<default>])}, and
 * {@code map} for {@code map_str}. As in HAProxy 2.6, every method but "regm" has the three outputs,
 * "regm" only the string one, and there are neither "-i" nor "len", "bin" or "found" maps.
 */
public final class MapConverters {
    private static final List<MatchMethod> METHODS = List.of(MatchMethod.STR, MatchMethod.BEG, MatchMethod.SUB, MatchMethod.DIR,
            MatchMethod.DOM, MatchMethod.END, MatchMethod.REG, MatchMethod.INT, MatchMethod.IP);

    private MapConverters() {
    }

    /**
     * What a map file is compiled to for one kind of converter; converters of the same kind on the same
     * file share it ("map" and "map_str" are one kind).
     */
    private record Kind(MatchMethod method, boolean backrefs, MapOutput output) implements PatternUse {

        @Override
        public boolean ignoreCase() {
            return false;
        }

        @Override
        public String matchName() {
            return backrefs ? "regm" : method.keyword();
        }

        @Override
        public String valueType(String value) {
            return output.typeName(value);
        }

        MapTable compile(List<PatternFile.Entry> entries, String file) throws ConfigException {
            return backrefs ? RegexReplacementMap.compile(entries, file) : IndexedMap.compile(entries, file, method, output);
        }
    }

    /** @param where the configuration line being parsed, named in the CLI's listing of the map files */
    public static void register(SampleCatalog catalog, PatternFiles files, Supplier<Source> where) {
        add(catalog, files, where, "map", new Kind(MatchMethod.STR, false, MapOutput.STR));
        for (MatchMethod m : METHODS) {
            for (MapOutput o : MapOutput.values()) {
                add(catalog, files, where, "map_" + m.keyword() + o.suffix(), new Kind(m, false, o));
            }
        }
        add(catalog, files, where, "map_regm", new Kind(MatchMethod.REG, true, MapOutput.STR));
    }

    private static void add(SampleCatalog catalog, PatternFiles files, Supplier<Source> where, String name, Kind kind) {
        MapOutput out = kind.output();
        catalog.converter(new Converter(name, ArgSpec.of(1, ArgType.STR, out.defaultArg()), kind.method().input(), out.type(),
                (a, smp, ctx) -> a[0].as(BoundMap.class).convert(smp),
                args -> {
                    PatternFile file = files.load(args[0].text(), true, true, where.get());
                    PatternFile.View<MapTable> table = file.view(kind, MapTable.class, entries -> kind.compile(entries, file.name()),
                            LayeredMap::of);
                    args[0] = new Arg(ArgType.MAP, args[0].text(), 0, new BoundMap(table, args.length > 1 ? fallback(out, args[1]) : null));
                }));
    }

    /** The default value as a sample of the output type. */
    private static Sample fallback(MapOutput out, Arg arg) throws ConfigException {
        if (out == MapOutput.INT) {
            Sample s = new Sample(); // the parser read the argument as an integer
            s.setSint(arg.num());
            return s;
        }
        Sample s = out.parse(arg.text());
        if (s == null) {
            throw new ConfigException("map: cannot parse default ip <" + arg.text() + ">.");
        }
        return s;
    }
}
