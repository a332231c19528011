package io.fulcrum.peers;

import io.fulcrum.cfg.Registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The peers sections by name (a registry component), and the running ones, which {@code show peers} lists. */
final class PeersConfig {
    final Map<String, PeersSpec> sections = new LinkedHashMap<>();
    final List<PeersRuntime> running = new ArrayList<>();
    /** {@code tune.peers.max-updates-at-once}: the updates a session sends before it lets its event loop do other work. */
    int maxUpdatesAtOnce = 200;

    static PeersConfig of(Registry registry) {
        return registry.component(PeersConfig.class, PeersConfig::new);
    }
}
