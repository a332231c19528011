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

    /**
     * The arguments as HAProxy's keyword listing ({@code -dKsmp}, {@code -dKcnv}) writes them, the optional ones
     * between brackets: "string[,integer]", "[string]"; empty without arguments.
     */
    public String listing() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < types.size(); i++) {
            if (i == mandatory) {
                b.append(i == 0 ? "[" : "[,");
            } else if (i > 0) {
                b.append(',');
            }
            b.append(types.get(i)); // (a variable's name is a "string" to HAProxy, which checks it afterwards)
        }
        if (mandatory < types.size()) {
            b.append(']');
        }
        return b.toString();
    }
}
