package io.fulcrum.cfg;

/**
 * A whole-configuration check run after every file is parsed: resolving references between sections,
 * applying defaults, cross-section consistency. Reports through {@code diag}; an alert fails the load.
 */
@FunctionalInterface
public interface ConfigCheck {
    void check(ConfigModel model, Diagnostics diag);
}
