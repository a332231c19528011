package io.fulcrum.cfg;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the configuration parse builds. The cfg layer knows no subsystem: each one keeps its part here
 * under its own type (the proxies, the global settings...), created on first use.
 */
public final class ConfigModel {
    private final Map<Class<?>, Object> parts = new HashMap<>();
    private final Environment env;

    public ConfigModel(Environment env) {
        this.env = env;
    }

    public Environment env() {
        return env;
    }

    /** The part of type {@code type}, created by {@code create} when absent. */
    public <T> T part(Class<T> type, Supplier<T> create) {
        return type.cast(parts.computeIfAbsent(type, t -> create.get()));
    }
}
