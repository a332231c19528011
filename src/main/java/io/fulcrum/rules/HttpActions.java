package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;

import java.util.Map;
import java.util.TreeMap;

/**
 * The actions of {@code http-request}, {@code http-response} and {@code http-after-response} rules,
 * by keyword; filled by the modules that own them.
 */
public final class HttpActions {

    /** Parses an action's arguments into the action. */
    @FunctionalInterface
    public interface Parser {
        HttpAction parse(ActionArgs args) throws ConfigException;
    }

    /** Where a rule applies. */
    public enum Phase {
        REQUEST("http-request"), RESPONSE("http-response"), AFTER_RESPONSE("http-after-response");

        private final String keyword;

        Phase(String keyword) {
            this.keyword = keyword;
        }

        public String keyword() {
            return keyword;
        }
    }

    private final Map<Phase, Map<String, Parser>> parsers = new java.util.EnumMap<>(Phase.class);

    public HttpActions() {
        for (Phase p : Phase.values()) {
            parsers.put(p, new TreeMap<>());
        }
    }

    public static HttpActions of(Registry registry) {
        return registry.component(HttpActions.class, HttpActions::new);
    }

    /** Registers {@code parser} for {@code keyword} in each of {@code phases}. */
    public void add(String keyword, Parser parser, Phase... phases) {
        for (Phase p : phases) {
            if (parsers.get(p).putIfAbsent(keyword, parser) != null) {
                throw new IllegalStateException("action '" + keyword + "' registered twice for " + p.keyword());
            }
        }
    }

    /** The keywords of a phase's actions, sorted ("set-var(*)" for those with a parameter). */
    public java.util.Set<String> keywords(Phase phase) {
        return java.util.Collections.unmodifiableSet(parsers.get(phase).keySet());
    }

    Parser find(Phase phase, String keyword) {
        return parsers.get(phase).get(keyword);
    }

    /** The keywords of a phase as HAProxy lists them in its error message ("'set-var(*)'"). */
    String list(Phase phase) {
        StringBuilder sb = new StringBuilder();
        for (String k : parsers.get(phase).keySet()) {
            sb.append('\'').append(k).append("', ");
        }
        return sb.toString();
    }
}
