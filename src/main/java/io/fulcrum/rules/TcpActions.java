package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code tcp-request} and {@code tcp-response content} actions that other subsystems own (the stick counters'
 * {@code track-sc0}, {@code sc-inc-gpc0}...), by keyword ({@code name(*)} for those with a parameter in parentheses),
 * as {@link HttpActions} for HTTP rules.
 */
public final class TcpActions {

    /** Parses an action's arguments; {@link ActionArgs#stage()} says which rule set it is in. */
    @FunctionalInterface
    public interface Parser {
        TcpRules.TcpAction parse(ActionArgs args) throws ConfigException;
    }

    private final Map<String, Parser> parsers = new TreeMap<>();
    private final Map<String, Parser> responseParsers = new TreeMap<>();

    public static TcpActions of(Registry registry) {
        return registry.component(TcpActions.class, TcpActions::new);
    }

    /** A tcp-request action. */
    public void add(String keyword, Parser parser) {
        put(parsers, "tcp-request", keyword, parser);
    }

    /** A tcp-response content action. */
    public void addResponse(String keyword, Parser parser) {
        put(responseParsers, "tcp-response", keyword, parser);
    }

    private static void put(Map<String, Parser> map, String rules, String keyword, Parser parser) {
        if (map.putIfAbsent(keyword, parser) != null) {
            throw new IllegalStateException(rules + " action '" + keyword + "' registered twice");
        }
    }

    /**
     * The keywords registered for tcp-request rules (each of connection, session and content takes them) or for
     * tcp-response content rules ({@code response}), sorted; the rules' own actions (accept, reject...) are not here.
     */
    public java.util.Set<String> keywords(boolean response) {
        return java.util.Collections.unmodifiableSet((response ? responseParsers : parsers).keySet());
    }

    Parser find(String keyword, boolean response) {
        return (response ? responseParsers : parsers).get(keyword);
    }
}
