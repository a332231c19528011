package io.fulcrum.sample;

import java.util.List;

/**
 * The arguments a fetch or converter takes: their types in order, and how many are mandatory.
 *
 * @param mandatory the number of leading arguments that must be given
 */
public record ArgSpec(int mandatory, List<ArgType> types) {
    public static final ArgSpec NONE = new ArgSpec(0, List.of());

    public static ArgSpec of(int mandatory, ArgType... types) {
        return new ArgSpec(mandatory, List.of(types));
    }

    public int max() {
        return types.size();
    }
}
