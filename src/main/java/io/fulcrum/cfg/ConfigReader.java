package io.fulcrum.cfg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads configuration files into logical lines: tokenizes each line ({@link Lexer}), drops comments and
 * blank lines, and carries out the conditional-block and message directives ({@code .if}, {@code .elif},
 * {@code .else}, {@code .endif}, {@code .diag}, {@code .notice}, {@code .warning}, {@code .alert}).
 * Errors are reported to the diagnostics and the line is skipped, so one run reports them all.
 */
public final class ConfigReader {
    private final Environment env;
    private final Diagnostics diag;

    public ConfigReader(Environment env, Diagnostics diag) {
        this.env = env;
        this.diag = diag;
    }

    /** Reads {@code path}, shown to the user as {@code name}, and hands each active line to {@code sink}. */
    public void read(Path path, String name, Consumer<ConfigLine> sink) throws IOException {
        // TODO(helper A): real lexer and directives. Placeholder: split on blanks.
        List<String> lines = Files.readAllLines(path, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            List<Token> tokens = new ArrayList<>();
            int col = 0;
            for (String w : raw.split("\\s+")) {
                if (w.startsWith("#")) {
                    break;
                }
                if (!w.isEmpty()) {
                    tokens.add(new Token(w, raw.indexOf(w, col)));
                    col = raw.indexOf(w, col) + w.length();
                }
            }
            if (!tokens.isEmpty()) {
                sink.accept(new ConfigLine(new Source(name, i + 1), raw, tokens));
            }
        }
    }
}
