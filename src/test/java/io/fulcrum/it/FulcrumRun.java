package io.fulcrum.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One run of {@code bin/fulcrum} to completion (a {@code -c} check, {@code -v}, {@code -cc}...), in a
 * chosen working directory, with its exit status and output. For a server that keeps running, use
 * {@link FulcrumProcess}.
 */
public record FulcrumRun(List<String> args, int exit, String stdout, String stderr) {

    private static final Pattern PID = Pattern.compile("(?m)^(\\[[A-Z]+\\]\\s+)\\(\\d+\\)");

    /** The directory of the configuration corpus, {@code src/test/resources/configs}. */
    public static Path corpus() {
        return FulcrumProcess.home().resolve("src/test/resources/configs");
    }

    /** Runs {@code bin/fulcrum ARGS} in {@code dir}; fails the test if it runs for more than 60 s. */
    public static FulcrumRun in(Path dir, String... args) throws IOException, InterruptedException {
        return in(dir, Map.of(), args);
    }

    /** Same, with extra environment variables. */
    public static FulcrumRun in(Path dir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path tmp = Files.createTempDirectory("fulcrum-run");
        Path out = tmp.resolve("stdout");
        Path err = tmp.resolve("stderr");
        List<String> cmd = new ArrayList<>();
        cmd.add(FulcrumProcess.home().resolve("bin/fulcrum").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("FULCRUM_JAVA_OPTS", System.getProperty("fulcrum.test.jvm.args",
                "-Dio.netty.leakDetection.level=paranoid"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("fulcrum " + String.join(" ", args) + " did not finish in 60 s");
        }
        try {
            FulcrumRun run = new FulcrumRun(List.of(args), p.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1),
                    Files.readString(err, StandardCharsets.ISO_8859_1));
            if (run.stderr.contains("LEAK:")) {
                throw new AssertionError("Netty reported a buffer leak:\n" + run.describe());
            }
            return run;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            Files.deleteIfExists(tmp);
        }
    }

    /** Runs {@code bin/fulcrum ARGS} in the corpus directory. */
    public static FulcrumRun inCorpus(String... args) throws IOException, InterruptedException {
        return in(corpus(), args);
    }

    /** stderr with the PID of every message replaced by {@code PID}: {@code [ALERT]    (PID) : ...}. */
    public String maskedStderr() {
        return mask(stderr);
    }

    public static String mask(String text) {
        return PID.matcher(text).replaceAll("$1(PID)");
    }

    /** The run as a failure message shows it (see {@link #printable}). */
    public String describe() {
        return "fulcrum " + String.join(" ", args) + "\n--- exit " + exit + "\n--- stdout:\n" + printable(stdout) + "--- stderr:\n"
                + printable(stderr);
    }

    /** For failure messages: control and non-ASCII characters escaped, lines cut after 300 characters. */
    public static String printable(String text) {
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            StringBuilder l = new StringBuilder();
            for (int i = 0; i < line.length() && l.length() < 300; i++) {
                char c = line.charAt(i);
                if (c >= 0x20 && c < 0x7f) {
                    l.append(c);
                } else {
                    l.append(String.format("\\x%02x", (int) c));
                }
            }
            sb.append(l).append(line.length() > l.length() ? "...[" + line.length() + " chars]" : "").append('\n');
        }
        return sb.substring(0, sb.length() - 1);
    }
}
