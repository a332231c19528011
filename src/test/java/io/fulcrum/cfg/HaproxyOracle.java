package io.fulcrum.cfg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** The real HAProxy 2.6, when installed, to compare Fulcrum's behaviour with. */
final class HaproxyOracle {
    private HaproxyOracle() {
    }

    private static final Path BINARY = Path.of("/usr/sbin/haproxy");
    private static final Pattern PID = Pattern.compile("(?m)^(\\[[A-Z]+\\] +)\\(\\d+\\)");

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** What HAProxy printed (bytes as ISO-8859-1, pids as "PID", its version banner removed) and its status. */
    record Result(int status, String output) {
    }

    /** Runs HAProxy with only {@code env} as environment. */
    static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        return run(Path.of("."), env, args);
    }

    /** Runs HAProxy in {@code dir} (so that files named relatively are reported so). */
    static Result run(Path dir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("haproxy did not finish");
        }
        String text = PID.matcher(new String(out, StandardCharsets.ISO_8859_1)).replaceAll("$1(PID)");
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("(?<=\n)")) {
            if (!line.contains("haproxy version is ") && !line.contains("path to executable is ")) {
                kept.append(line);
            }
        }
        return new Result(p.exitValue(), kept.toString());
    }
}
