package io.fulcrum.http;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigLoader;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.Registry;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A configuration loaded by the real loader with every module, and what it printed (pid shown as 1). */
public record LoadedConfig(ConfigModel model, String output) {
    /** A defaults section for HTTP proxies with every timeout set: the lines after it start at line 6. */
    public static final String HTTP_DEFAULTS = """
            defaults
                mode http
                timeout client 1s
                timeout server 1s
                timeout connect 1s
            """;

    /** Loads {@code text} as {@code dir}/t.cfg, reported as "t.cfg"; "$DIR" in it stands for {@code dir}. */
    public static LoadedConfig load(Path dir, String text) {
        Path file = dir.resolve("t.cfg");
        try {
            Files.writeString(file, text.replace("$DIR", dir.toString()), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Diagnostics diag = new Diagnostics(new PrintStream(out, true, StandardCharsets.ISO_8859_1), 1);
        ConfigModel model = new ConfigLoader(Registry.of(Modules.ALL), diag, new Environment(Map.of()))
                .load(List.of(new ConfigLoader.ConfigFile(file, "t.cfg")));
        return new LoadedConfig(model, out.toString(StandardCharsets.ISO_8859_1).replace(dir.toString(), "$DIR"));
    }

    /** The alerts and warnings, without the version notice that introduces them. */
    public String messages() {
        return output.lines().filter(l -> !l.startsWith("[NOTICE]")).collect(Collectors.joining("\n", "", "\n"));
    }

    ErrorSet errors(String proxy) {
        ProxySpec p = ProxyTable.of(model).find(proxy);
        if (p == null) {
            throw new IllegalArgumentException("no proxy " + proxy + " in:\n" + output);
        }
        return ErrorSet.of(p);
    }
}
