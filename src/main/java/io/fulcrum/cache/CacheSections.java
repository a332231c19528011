package io.fulcrum.cache;

import io.fulcrum.cfg.ConfigModel;

import java.util.LinkedHashMap;
import java.util.Map;

/** The configuration's {@code cache} sections, by name, in their order. */
final class CacheSections {
    final Map<String, CacheSection> byName = new LinkedHashMap<>();

    static CacheSections of(ConfigModel model) {
        return model.part(CacheSections.class, CacheSections::new);
    }
}
