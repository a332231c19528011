package io.fulcrum.master;

import io.fulcrum.cfg.ConfigModel;

/** The global {@code master-worker} and {@code mworker-max-reloads} settings. */
public final class MasterSettings {
    /** {@code master-worker}: as {@code -W}. */
    public boolean enabled;
    /** False with {@code master-worker no-exit-on-failure}: a worker that fails does not stop the others. */
    public boolean exitOnFailure = true;
    /** Reloads an old worker survives before the master sends it SIGTERM; negative: no limit (HAProxy's default). */
    public long maxReloads = -1;

    public static MasterSettings of(ConfigModel model) {
        return model.part(MasterSettings.class, MasterSettings::new);
    }
}
