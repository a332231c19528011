package io.fulcrum.cfg;

/**
 * Parses one configuration line into the object the enclosing section (or option list) is building.
 *
 * @param <C> what the keyword configures: the global settings, a proxy, a bind line, a server...
 */
@FunctionalInterface
public interface Keyword<C> {
    void parse(C target, ConfigLine line) throws ConfigException;
}
