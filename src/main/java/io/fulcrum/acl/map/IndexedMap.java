package io.fulcrum.acl.map;

import io.fulcrum.acl.MatchMethod;
import io.fulcrum.acl.Holes;
import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.PatternIndex;
import io.fulcrum.acl.PatternValue;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Sample;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A map whose keys are patterns of a matching method, each line's value read once as the output type. Lines with
 * the same value share its sample (read-only: a lookup copies it), the first {@value #SHARED_VALUES} values at
 * least: a map of millions of addresses usually names a few countries or backends.
 */
final class IndexedMap implements MapTable {
    private static final int SHARED_VALUES = 1 << 16;

    private final PatternIndex keys;
    /** Replaced in place by "set map" (a reference written whole: a lookup copies the old value or the new one). */
    private final Sample[] values;
    private final MapOutput output;

    private IndexedMap(PatternIndex keys, Sample[] values, MapOutput output) {
        this.keys = keys;
        this.values = values;
        this.output = output;
    }

    static IndexedMap compile(List<PatternFile.Entry> entries, String file, MatchMethod method, MapOutput output) throws ConfigException {
        List<PatternValue> patterns = keys(entries, file);
        Sample[] values = new Sample[entries.size()];
        Map<String, Sample> shared = new HashMap<>();
        for (int k = 0; k < values.length; k++) {
            PatternFile.Entry e = entries.get(k);
            values[k] = shared.get(e.value());
            if (values[k] == null) {
                values[k] = output.parse(e.value());
                if (values[k] != null && shared.size() < SHARED_VALUES) {
                    shared.put(e.value(), values[k]);
                }
            }
            if (values[k] == null) {
                // HAProxy reads a line's value before its key: an invalid key on an earlier line comes first.
                method.index(patterns.subList(0, k));
                throw new ConfigException("unable to parse '" + e.value() + "'" + (e.line() < 0 ? "" : " at line " + e.line() + " of file '" + file + "'"));
            }
        }
        return new IndexedMap(method.index(patterns), values, output);
    }

    /** The keys of the entries as patterns (maps have no "-i"), with their place for error messages. */
    static List<PatternValue> keys(List<PatternFile.Entry> entries, String file) {
        return PatternValue.of(entries, false, file);
    }

    @Override
    public int find(Sample smp) {
        return keys.find(smp);
    }

    @Override
    public long findLive(Sample smp, Holes holes) {
        return keys.findLive(smp, holes);
    }

    @Override
    public boolean skipsHoles() {
        return keys.skipsHoles();
    }

    @Override
    public void revalue(int position, String value) {
        values[position] = output.parse(value);
    }

    @Override
    public boolean convert(Sample smp, Sample fallback) {
        return copy(keys.find(smp), smp, fallback);
    }

    /** Replaces {@code smp} by the value at {@code position}, or by {@code fallback} when it is -1; false when none. */
    boolean copy(int position, Sample smp, Sample fallback) {
        Sample v = position >= 0 ? values[position] : fallback;
        if (v == null) {
            return false;
        }
        smp.copyFrom(v);
        return true;
    }
}
