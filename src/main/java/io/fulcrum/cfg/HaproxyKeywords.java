package io.fulcrum.cfg;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every keyword HAProxy 2.6 documents, per context, so that a keyword Fulcrum does not implement yet is
 * reported as such rather than as unknown. Loaded from {@code haproxy-keywords.txt} beside this class,
 * which {@code tools/gen-haproxy-keywords.py} generates from HAProxy's documentation: one
 * {@code <context> <keyword>} per line, where the context is {@code global}, {@code proxy},
 * {@code option}, {@code timeout}, {@code stats}, {@code bind}, {@code server}, {@code flag},
 * {@code section}, {@code converter} or the name of another section ({@code peers}, {@code resolvers}...).
 */
public final class HaproxyKeywords {
    static final String RESOURCE = "haproxy-keywords.txt";

    private HaproxyKeywords() {
    }

    /** True when HAProxy documents {@code name} in {@code context}. */
    public static boolean knows(String context, String name) {
        return Holder.BY_CONTEXT.getOrDefault(context, Set.of()).contains(name);
    }

    /** All keywords HAProxy documents in {@code context}, sorted; empty for an unknown context. */
    public static List<String> all(String context) {
        return List.copyOf(Holder.BY_CONTEXT.getOrDefault(context, Set.of()));
    }

    /** The contexts of the inventory, sorted. */
    public static List<String> contexts() {
        return List.copyOf(Holder.BY_CONTEXT.keySet());
    }

    /** Loaded on first use. */
    private static final class Holder {
        static final Map<String, Set<String>> BY_CONTEXT = load();

        private static Map<String, Set<String>> load() {
            Map<String, TreeSet<String>> sets = new TreeMap<>();
            try (InputStream in = HaproxyKeywords.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("missing resource " + RESOURCE);
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line; (line = reader.readLine()) != null; ) {
                    line = line.strip();
                    if (line.isEmpty() || line.startsWith("#")) {
                        continue;
                    }
                    String[] parts = line.split("\\s+");
                    if (parts.length != 2) {
                        throw new IllegalStateException(RESOURCE + ": malformed line '" + line + "'");
                    }
                    sets.computeIfAbsent(parts[0], c -> new TreeSet<>()).add(parts[1]);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // Unmodifiable views of sets nobody else holds: immutable, and sorted unlike Set.copyOf.
            Map<String, Set<String>> result = new TreeMap<>();
            sets.forEach((context, names) -> result.put(context, Collections.unmodifiableSortedSet(names)));
            return Collections.unmodifiableMap(result);
        }
    }
}
