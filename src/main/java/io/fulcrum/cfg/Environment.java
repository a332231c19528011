package io.fulcrum.cfg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment variables the configuration sees: the process environment, HAProxy's predefined
 * {@code HAPROXY_*} variables, and what {@code setenv}/{@code presetenv}/{@code unsetenv}/{@code resetenv}
 * change while parsing. A JVM cannot change its own environment, so this is the one place to read it.
 * Variables keep the order of the process's environment ({@code show env} lists them as HAProxy, in {@code environ}
 * order): one set anew goes last, one set again keeps its place, as with the C library's {@code setenv}.
 */
public final class Environment {
    private final Map<String, String> vars;
    /** The variables the command line set ({@code -L}): the configuration's keywords do not change them. */
    private final java.util.Set<String> fixed = new java.util.HashSet<>();

    public Environment(Map<String, String> initial) {
        this.vars = new LinkedHashMap<>(initial);
    }

    /** The process's environment, in the order the process received it. */
    public static Environment ofProcess() {
        return new Environment(ordered(System.getenv(), Path.of("/proc/self/environ")));
    }

    /**
     * {@code env} (the JVM's map, which has no order) in the order of the names in {@code environ} (the kernel's copy
     * of what the process received: NUL-terminated "name=value" entries); names it lacks come last.
     */
    static Map<String, String> ordered(Map<String, String> env, Path environ) {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            for (String entry : new String(Files.readAllBytes(environ)).split("\0")) {
                int eq = entry.indexOf('=');
                String name = eq > 0 ? entry.substring(0, eq) : null;
                if (name != null && env.containsKey(name)) {
                    out.putIfAbsent(name, env.get(name));
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no /proc: the JVM's order then
        }
        env.forEach(out::putIfAbsent);
        return out;
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

    /** A copy in the environment's order, for child processes and {@code show env}. */
    public Map<String, String> asMap() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars));
    }
}
