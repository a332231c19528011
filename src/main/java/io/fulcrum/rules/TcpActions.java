package io.fulcrum.rules;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code tcp-request} actions that other subsystems own (the stick counters' {@code track-sc0}...), by keyword
 * ({@code name(*)} for those with a parameter in parentheses), as {@link HttpActions} for HTTP rules.
 */
public final class TcpActions {

    /** Parses an action's arguments; {@link ActionArgs#stage()} says which tcp-request rule set it is in. */
    @FunctionalInterface
    public interface Parser {
        TcpRules.TcpAction parse(ActionArgs args) throws ConfigException;
    }

    private final Map<String, Parser> parsers = new TreeMap<>();

    public static TcpActions of(Registry registry) {
        return registry.component(TcpActions.class, TcpActions::new);
    }

    public void add(String keyword, Parser parser) {
        if (parsers.putIfAbsent(keyword, parser) != null) {
            throw new IllegalStateException("tcp-request action '" + keyword + "' registered twice");
        }
    }

    Parser find(String keyword) {
        return parsers.get(keyword);
    }
}
