package io.fulcrum.compression;

import io.fulcrum.cfg.ConfigModel;

/** The process's compression settings (global section). */
final class CompressionSettings {
    /** HAProxy's {@code tune.comp.maxlevel} default: speed over size. */
    static final int DEFAULT_LEVEL = 1;

    /** {@code tune.comp.maxlevel}: the zlib level every compressed response starts with. */
    int maxLevel = DEFAULT_LEVEL;
    /** {@code maxcomprate}, in bytes per second: 0 for none. */
    long rateLimit;
    /** {@code maxcompcpuusage}, in percent: 100 for none. */
    int maxCpuUsage = 100;
    /** {@code maxzlibmem}, in bytes: 0 or less for none. */
    long maxZlibMem;

    static CompressionSettings of(ConfigModel model) {
        return model.part(CompressionSettings.class, CompressionSettings::new);
    }
}
