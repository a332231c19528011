package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

/** A variable named in the configuration: its scope and its name within the scope. */
public record VarRef(VarScope scope, String name) {

    /** Parses "scope.name", with HAProxy's checks and wording. */
    public static VarRef parse(String full) throws ConfigException {
        if (full.isEmpty()) {
            throw new ConfigException("Empty variable name cannot be accepted");
        }
        VarScope scope = VarScope.of(full);
        String name = scope == null ? "" : full.substring(scope.prefix().length() + 1);
        if (name.isEmpty()) {
            throw new ConfigException("invalid variable name '" + full + "'. A variable name must be start by its scope. "
                    + "The scope can be 'proc', 'sess', 'txn', 'req', 'res' or 'check'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_')) {
                throw new ConfigException("invalid syntax at char '" + name.substring(i) + "'");
            }
        }
        return new VarRef(scope, name);
    }

    /** The variables of this scope; without a context (config parsing, the CLI) only proc variables exist. */
    private Vars vars(SampleContext ctx) {
        return ctx != null ? ctx.vars(scope) : scope == VarScope.PROC ? Vars.PROC : null;
    }

    public Sample get(SampleContext ctx) {
        Vars vars = vars(ctx);
        return vars == null ? null : vars.get(name);
    }

    /** A copy of the value cast to {@code type}, or null when the variable is not set or does not cast. */
    public Sample getAs(SampleContext ctx, SampleType type) {
        Sample v = get(ctx);
        if (v == null) {
            return null;
        }
        Sample s = v.copy();
        return s.cast(type) ? s : null;
    }

    /** Stores a copy of {@code value}; false when the scope does not exist here or a tune.vars limit refused it. */
    public boolean set(SampleContext ctx, Sample value) {
        Vars vars = vars(ctx);
        return vars != null && vars.set(name, value);
    }

    public void unset(SampleContext ctx) {
        Vars vars = vars(ctx);
        if (vars != null) {
            vars.unset(name);
        }
    }

    @Override
    public String toString() {
        return scope.prefix() + "." + name;
    }
}
