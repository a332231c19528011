package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

/** A condition of {@code set-var(<name>,<cond>...)}: the variable is stored only when all of them hold. */
public enum VarCondition {
    IFEXISTS, IFNOTEXISTS, IFEMPTY, IFNOTEMPTY, IFSET, IFNOTSET, IFGT, IFLT;

    /** The condition a word names, with HAProxy's error for another word. */
    public static VarCondition of(String word) throws ConfigException {
        VarCondition c = named(word);
        if (c == null) {
            throw new ConfigException("unknown condition \"" + word + "\"");
        }
        return c;
    }

    /** The condition a word names, or null. */
    static VarCondition named(String word) {
        for (VarCondition c : values()) {
            if (c.name().toLowerCase(java.util.Locale.ROOT).equals(word)) {
                return c;
            }
        }
        return null;
    }

    /**
     * Whether it holds for storing {@code value} where {@code old} is (null: not set). Proc variables always exist
     * (HAProxy creates them with the configuration); the others exist while they are set. ifgt/iflt hold unless both are
     * integers and the order is not the asked one.
     */
    boolean holds(VarRef ref, Sample old, Sample value) {
        boolean exists = old != null || ref.scope() == VarScope.PROC;
        boolean empty = (value.type() == SampleType.STR || value.type() == SampleType.BIN || value.type() == SampleType.METH)
                && value.length() == 0;
        boolean integers = old != null && old.type() == SampleType.SINT && value.type() == SampleType.SINT;
        return switch (this) {
            case IFEXISTS -> exists;
            case IFNOTEXISTS -> !exists;
            case IFEMPTY -> empty;
            case IFNOTEMPTY -> !empty;
            case IFSET -> old != null;
            case IFNOTSET -> old == null;
            case IFGT -> !integers || old.num() > value.num();
            case IFLT -> !integers || old.num() < value.num();
        };
    }
}
