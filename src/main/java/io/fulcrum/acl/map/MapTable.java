package io.fulcrum.acl.map;

import io.fulcrum.acl.PatternIndex;
import io.fulcrum.sample.Sample;

/**
 * A map file compiled for one matching method and output type: what a map converter looks up. As an
 * index, it says which line a sample matches (for the CLI's "get map").
 */
interface MapTable extends PatternIndex {
    /**
     * Replaces {@code smp} (cast to the method's input type) by the value of the line its key matches, or
     * by {@code fallback} when none does; false when there is no result.
     *
     * @param fallback the converter's default value, or null
     */
    boolean convert(Sample smp, Sample fallback);
}
