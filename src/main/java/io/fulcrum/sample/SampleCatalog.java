package io.fulcrum.sample;

import io.fulcrum.cfg.Registry;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every sample fetch and converter keyword, registered by the subsystem that owns it through its
 * {@code Module} ({@code SampleCatalog.of(registry).fetch(...)}) and looked up when expressions are
 * parsed.
 */
public final class SampleCatalog {
    private final Map<String, Fetch> fetches = new TreeMap<>();
    private final Map<String, Converter> converters = new TreeMap<>();

    /** The registry's catalog, created on first use. */
    public static SampleCatalog of(Registry registry) {
        return registry.component(SampleCatalog.class, SampleCatalog::new);
    }

    public void fetch(Fetch f) {
        if (fetches.putIfAbsent(f.name(), f) != null) {
            throw new IllegalStateException("sample fetch '" + f.name() + "' registered twice");
        }
    }

    public void converter(Converter c) {
        if (converters.putIfAbsent(c.name(), c) != null) {
            throw new IllegalStateException("converter '" + c.name() + "' registered twice");
        }
    }

    public Fetch fetch(String name) {
        return fetches.get(name);
    }

    public Converter converter(String name) {
        return converters.get(name);
    }

    public Collection<Fetch> fetches() {
        return Collections.unmodifiableCollection(fetches.values());
    }

    public Collection<Converter> converters() {
        return Collections.unmodifiableCollection(converters.values());
    }
}
