package io.fulcrum.mailers;

import io.fulcrum.cfg.Registry;

import java.util.LinkedHashMap;
import java.util.Map;

/** The mailers sections by name (a registry component). */
final class MailersConfig {
    final Map<String, MailersSpec> sections = new LinkedHashMap<>();

    static MailersConfig of(Registry registry) {
        return registry.component(MailersConfig.class, MailersConfig::new);
    }
}
