package io.fulcrum.acl.map;

import io.fulcrum.acl.PatternFile;
import io.fulcrum.sample.Sample;

/**
 * What a map converter's file argument is compiled to: the map file's table for the converter's method
 * and output, read from the file's current snapshot on every lookup, and the converter's default value.
 *
 * @param fallback the default value as a sample of the output type, or null
 */
record BoundMap(PatternFile.View<MapTable> table, Sample fallback) {

    boolean convert(Sample smp) {
        return table.current().convert(smp, fallback);
    }
}
