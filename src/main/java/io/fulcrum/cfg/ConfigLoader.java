package io.fulcrum.cfg;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads configuration files into a {@link ConfigModel}: reads their lines, opens the sections registered
 * in the {@link Registry} and feeds them their lines, then runs the registered whole-configuration
 * checks. Reports as {@code haproxy -c} does; the caller looks at {@link Diagnostics#alerts()}.
 */
public final class ConfigLoader {
    private final Registry registry;
    private final Diagnostics diag;
    private final ConfigModel model;
    private SectionParser current;
    private ConfigReader reader;

    public ConfigLoader(Registry registry, Diagnostics diag, Environment env) {
        this.registry = registry;
        this.diag = diag;
        this.model = new ConfigModel(env);
    }

    /** The model being built: the command line's flags that stand for global keywords set it before {@link #load}. */
    public ConfigModel model() {
        return model;
    }

    /** A file to load and the name it is reported under (the path as the user gave it). */
    public record ConfigFile(Path path, String name) {
    }

    /** Loads every file in order; returns the model, complete only when no alert was reported. */
    public ConfigModel load(List<ConfigFile> files) {
        DefaultPath paths = DefaultPath.of(model);
        reader = new ConfigReader(model.env(), diag, paths::dir);
        for (ConfigFile f : files) {
            int before = diag.alerts();
            paths.enter(f.path());
            try {
                reader.read(f.path(), f.name(), this::dispatch);
            } catch (IOException e) {
                diag.configAlert("Cannot open configuration file/directory " + f.name() + " : " + describe(e));
            }
            endSection();
            paths.leave();
            if (reader.aborted()) {
                diag.configAlert("Error(s) found in configuration file : " + f.name());
                // A broken conditional block stops the whole load, as in HAProxy: later files would be
                // read under the wrong conditions.
                return model;
            }
            if (diag.alerts() > before) {
                diag.configAlert("Error(s) found in configuration file : " + f.name());
            }
        }
        if (diag.alerts() == 0) {
            for (ConfigCheck check : registry.checks()) {
                check.check(model, diag);
            }
        }
        if (diag.alerts() > 0) {
            diag.configAlert("Fatal errors found in configuration.");
        }
        return model;
    }

    private void dispatch(ConfigLine line) {
        SectionType type = registry.section(line.keyword());
        registry.parsing(line, type != null || HaproxyKeywords.knows("section", line.keyword()));
        try {
            if (type != null) {
                endSection();
                reader.enterSection(line.has(1) ? line.arg(1) : line.keyword());
                current = ignored -> { }; // if the header is refused, its body would only repeat the error
                current = type.open(line, model);
            } else if (HaproxyKeywords.knows("section", line.keyword())) {
                endSection();
                // The header is the error; its body lines would only repeat it.
                current = ignored -> { };
                throw new ConfigException("'" + line.keyword() + "' sections are not supported by Fulcrum yet.");
            } else if (current != null) {
                current.line(line);
            } else {
                throw new ConfigException("unknown keyword '" + line.keyword() + "' out of section.");
            }
        } catch (ConfigException e) {
            diag.report(line, e);
        }
    }

    private void endSection() {
        if (current == null) {
            return;
        }
        try {
            current.end();
        } catch (ConfigException e) {
            diag.configAlert(e.getMessage());
        }
        current = null;
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "Permission denied";
        }
        return e.getMessage();
    }
}
