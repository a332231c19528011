package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pattern and map files of a configuration by name, each read once however many ACLs and map
 * converters use it (and, later, where the CLI finds them).
 */
public final class PatternFiles {
    private final Map<String, PatternFile> files = new LinkedHashMap<>();

    /** The registry's files, created on first use. */
    public static PatternFiles of(Registry registry) {
        return registry.component(PatternFiles.class, PatternFiles::new);
    }

    /**
     * The file {@code name}, read on first use as a map file or a pattern file. A file is one or the
     * other for the whole configuration, as in HAProxy.
     */
    public synchronized PatternFile load(String name, boolean map) throws ConfigException {
        PatternFile f = files.get(name);
        if (f == null) {
            f = PatternFile.load(name, map);
            files.put(name, f);
        } else if (f.isMap() != map) {
            throw new ConfigException("The file \"" + name + "\" is already used as " + columns(f.isMap())
                    + " column file and cannot be used by as " + columns(map) + " column file.");
        }
        return f;
    }

    private static String columns(boolean map) {
        return map ? "two" : "one";
    }

    public synchronized PatternFile get(String name) {
        return files.get(name);
    }

    public synchronized List<PatternFile> all() {
        return List.copyOf(files.values());
    }
}
