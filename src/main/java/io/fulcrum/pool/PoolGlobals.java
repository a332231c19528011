package io.fulcrum.pool;

import io.fulcrum.cfg.ConfigModel;

/** The global keywords of the pools: {@code tune.idle-pool.shared}. */
final class PoolGlobals {
    /** Loops may take idle server connections over from one another (HAProxy's default). */
    boolean shared = true;

    static PoolGlobals of(ConfigModel model) {
        return model.part(PoolGlobals.class, PoolGlobals::new);
    }
}
