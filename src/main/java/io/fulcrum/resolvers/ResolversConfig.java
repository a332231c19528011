package io.fulcrum.resolvers;

import io.fulcrum.cfg.Registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resolvers sections by name (a registry component), the running ones, which {@code show resolvers} lists, and the
 * do-resolve rules' references to them.
 */
final class ResolversConfig {
    final Map<String, ResolversSpec> sections = new LinkedHashMap<>();
    final List<ResolversRuntime> running = new ArrayList<>();
    /** The sections do-resolve rules name. */
    final List<DoResolve.Ref> doResolve = new ArrayList<>();
    /** {@code httpclient.resolvers.id}: the section HAProxy's internal HTTP client resolves with, or null. */
    String httpClient;

    static ResolversConfig of(Registry registry) {
        return registry.component(ResolversConfig.class, ResolversConfig::new);
    }
}
