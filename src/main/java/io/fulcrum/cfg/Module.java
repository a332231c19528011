package io.fulcrum.cfg;

/**
 * A subsystem's registration: its sections, keywords, options and checks. Every module is listed once,
 * in {@code io.fulcrum.Modules}.
 */
@FunctionalInterface
public interface Module {
    void register(Registry registry);
}
