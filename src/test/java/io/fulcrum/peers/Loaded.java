package io.fulcrum.peers;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigLoader;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Environment;
import io.fulcrum.cfg.Registry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A configuration loaded by the real loader with every module: its registry (the tables, the peers sections) and what it printed. */
record Loaded(Registry registry, String output) {

    /** Loads {@code text} as {@code dir}/t.cfg (reported as "t.cfg") in {@code env}. */
    static Loaded load(Path dir, String text, Environment env) throws IOException {
        Path file = dir.resolve("t.cfg");
        Files.writeString(file, text);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Registry r = Registry.of(Modules.ALL);
        new ConfigLoader(r, new Diagnostics(new PrintStream(out, true, StandardCharsets.ISO_8859_1), 1), env)
                .load(List.of(new ConfigLoader.ConfigFile(file, "t.cfg")));
        return new Loaded(r, out.toString(StandardCharsets.ISO_8859_1));
    }

    /**
     * The section of the session tests: this process "me", a peer "other", one table {@code t} of strings; {@code
     * global} adds lines to the global section.
     */
    static PeersRuntime mesh(Path dir, String global) throws IOException {
        Loaded l = load(dir, """
                global
                    localpeer me
                """ + global + """
                peers mesh
                    peer me 127.0.0.1:23020
                    peer other 127.0.0.1:23021
                    table t type string len 8 size 10 expire 1m store http_req_cnt
                """, new Environment(Map.of()));
        return PeersConfig.of(l.registry()).running.getFirst();
    }
}
