package io.fulcrum.cfg;

import java.util.HashMap;
import java.util.Map;

/**
 * The environment variables the configuration sees: the process environment, HAProxy's predefined
 * {@code HAPROXY_*} variables, and what {@code setenv}/{@code presetenv}/{@code unsetenv}/{@code resetenv}
 * change while parsing. A JVM cannot change its own environment, so this is the one place to read it.
 */
public final class Environment {
    private final Map<String, String> vars;
    /** The variables the command line set ({@code -L}): the configuration's keywords do not change them. */
    private final java.util.Set<String> fixed = new java.util.HashSet<>();

    public Environment(Map<String, String> initial) {
        this.vars = new HashMap<>(initial);
    }

    public static Environment ofProcess() {
        return new Environment(System.getenv());
    }

    /** The value of {@code name}, or null when it is not defined. */
    public String get(String name) {
        return vars.get(name);
    }

    public boolean defined(String name) {
        return vars.containsKey(name);
    }

    public void set(String name, String value) {
        vars.put(name, value);
    }

    /** Sets {@code name} for the command line: {@link #fixed} tells the keywords that would set it too. */
    public void setFixed(String name, String value) {
        vars.put(name, value);
        fixed.add(name);
    }

    public boolean fixed(String name) {
        return fixed.contains(name);
    }

    public void unset(String name) {
        vars.remove(name);
    }

    /** Keeps only the names given ({@code resetenv}). */
    public void retainOnly(java.util.Collection<String> names) {
        vars.keySet().retainAll(names);
    }

    /** A copy, for child processes. */
    public Map<String, String> asMap() {
        return Map.copyOf(vars);
    }
}
