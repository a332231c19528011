package io.fulcrum.sample;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The variables of one scope. Each value is a copy of the sample that was stored. */
public final class Vars {
    /** The process-wide scope, shared by every thread. */
    public static final Vars PROC = new Vars(new ConcurrentHashMap<>());

    private final Map<String, Sample> values;

    private Vars(Map<String, Sample> values) {
        this.values = values;
    }

    public Vars() {
        this(new HashMap<>(4));
    }

    public Sample get(String name) {
        return values.get(name);
    }

    public void set(String name, Sample value) {
        values.put(name, value.copy());
    }

    public void unset(String name) {
        values.remove(name);
    }

    public void clear() {
        values.clear();
    }
}
