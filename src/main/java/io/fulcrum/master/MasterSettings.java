package io.fulcrum.master;

import io.fulcrum.cfg.ConfigModel;

import java.util.LinkedHashMap;
import java.util.Map;

/** The global {@code master-worker} and {@code mworker-max-reloads} settings, and the {@code program} sections. */
public final class MasterSettings {
    /** {@code master-worker}: as {@code -W}. */
    public boolean enabled;
    /** False with {@code master-worker no-exit-on-failure}: a worker that fails does not stop the others. */
    public boolean exitOnFailure = true;
    /** Reloads an old worker survives before the master sends it SIGTERM; negative: no limit (HAProxy's default). */
    public long maxReloads = -1;
    /** The {@code program} sections, in the order written. */
    final Map<String, ProgramSpec> programs = new LinkedHashMap<>();
    /** The environment the configuration ends with ({@code setenv}...): the programs' own, as HAProxy's master has it. */
    Map<String, String> environment = Map.of();

    /** Whether the configuration has {@code program} sections, which only a master runs. */
    public boolean hasPrograms() {
        return !programs.isEmpty();
    }

    public static MasterSettings of(ConfigModel model) {
        return model.part(MasterSettings.class, MasterSettings::new);
    }
}
