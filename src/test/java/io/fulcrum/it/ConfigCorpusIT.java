package io.fulcrum.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fulcrum -c} on the configuration corpus ({@code src/test/resources/configs}):
 * <ul>
 * <li>{@code valid/*.cfg} must be accepted (exit 0, "Configuration file is valid"); those named
 * {@code warning-*} must report warnings ("Warnings were found."), the others none at all;</li>
 * <li>{@code invalid/*.cfg} must be refused (exit 1) with the lines of their {@code .expected} file (see
 * {@link Expected}), which pin file, line and wording;</li>
 * <li>an optional {@code valid/*.expected} pins the warnings and notices of a valid file.</li>
 * </ul>
 * Files are named as the corpus directory sees them ({@code invalid/foo.cfg}): the runs start there.
 * Every report must stay printable ASCII and short, whatever the configuration holds.
 */
class ConfigCorpusIT {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(Math.min(4, Runtime.getRuntime().availableProcessors()));

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @TestFactory
    Stream<DynamicTest> validConfigurationsAreAccepted() throws IOException {
        return corpusTests("valid", (name, run) -> {
            assertThat(run.exit()).as(run.describe()).isZero();
            assertThat(run.stdout()).as(run.describe()).contains("Configuration file is valid");
            assertThat(run.stderr()).as(run.describe()).doesNotContain("[ALERT]");
            if (name.startsWith("warning-")) {
                assertThat(run.stdout()).as(run.describe()).contains("Warnings were found.");
                assertThat(run.stderr()).as(run.describe()).contains("[WARNING]");
            } else {
                assertThat(run.stdout()).as(run.describe()).doesNotContain("Warnings were found.");
                assertThat(run.stderr()).as(run.describe()).doesNotContain("[WARNING]");
            }
        }, false);
    }

    @TestFactory
    Stream<DynamicTest> invalidConfigurationsAreRefusedWithFileLineAndMessage() throws IOException {
        return corpusTests("invalid", (name, run) -> {
            assertThat(run.exit()).as(run.describe()).isEqualTo(1);
            assertThat(run.stdout()).as(run.describe()).doesNotContain("Configuration file is valid");
            assertThat(run.stderr()).as(run.describe()).contains("[ALERT]");
        }, true);
    }

    /**
     * With {@code -Dit.oracle=haproxy} (and HAProxy installed, {@code -Dit.haproxy=/usr/sbin/haproxy} by
     * default), checks that the real HAProxy accepts the valid corpus too: it is HAProxy's language.
     */
    @TestFactory
    Stream<DynamicTest> validConfigurationsAreValidForHaproxyToo() throws IOException {
        String haproxy = System.getProperty("it.haproxy", "/usr/sbin/haproxy");
        org.junit.jupiter.api.Assumptions.assumeTrue("haproxy".equals(System.getProperty("it.oracle")) && Files.isExecutable(Path.of(haproxy)),
                "oracle disabled (-Dit.oracle=haproxy to enable)");
        List<Path> cfgs;
        try (Stream<Path> s = Files.list(FulcrumRun.corpus().resolve("valid"))) {
            cfgs = s.filter(p -> p.getFileName().toString().endsWith(".cfg")).sorted().toList();
        }
        return cfgs.stream().map(cfg -> DynamicTest.dynamicTest("haproxy -c -f valid/" + cfg.getFileName(), () -> {
            Process p = new ProcessBuilder(haproxy, "-c", "-f", "valid/" + cfg.getFileName())
                    .directory(FulcrumRun.corpus().toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
        }));
    }

    private interface Check {
        void check(String name, FulcrumRun run) throws Exception;
    }

    /** One test per {@code DIR/*.cfg}; the checks run in parallel, each test waits for its own. */
    private static Stream<DynamicTest> corpusTests(String dir, Check check, boolean expectedRequired) throws IOException {
        List<Path> cfgs;
        try (Stream<Path> s = Files.list(FulcrumRun.corpus().resolve(dir))) {
            cfgs = s.filter(p -> p.getFileName().toString().endsWith(".cfg")).sorted().toList();
        }
        assertThat(cfgs).as("corpus " + dir).isNotEmpty();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path cfg : cfgs) {
            String file = cfg.getFileName().toString();
            String name = file.substring(0, file.length() - ".cfg".length());
            Path expectedFile = cfg.resolveSibling(name + ".expected");
            Future<FulcrumRun> run = POOL.submit(() -> FulcrumRun.inCorpus("-c", "-f", dir + "/" + file));
            tests.add(DynamicTest.dynamicTest(dir + "/" + file, () -> {
                FulcrumRun r = run.get();
                try {
                    check.check(name, r);
                    if (Files.exists(expectedFile)) {
                        Expected.load(expectedFile).assertIn(r.maskedStderr(), r.describe());
                    } else if (expectedRequired) {
                        throw new AssertionError("missing " + dir + "/" + name + ".expected; the run printed:\n"
                                + FulcrumRun.printable(r.maskedStderr()));
                    }
                    assertReportIsReadable(r);
                } catch (AssertionError e) {
                    // Name the configuration first: the report lists dynamic tests by number.
                    throw new AssertionError(dir + "/" + file + ": " + e.getMessage(), e);
                }
            }));
        }
        // Every .expected belongs to a configuration (a renamed .cfg must not leave its expectations unchecked).
        try (Stream<Path> s = Files.list(FulcrumRun.corpus().resolve(dir))) {
            s.filter(p -> p.getFileName().toString().endsWith(".expected")).forEach(p -> {
                String n = p.getFileName().toString();
                if (!Files.exists(p.resolveSibling(n.substring(0, n.length() - ".expected".length()) + ".cfg"))) {
                    tests.add(DynamicTest.dynamicTest(dir + "/" + n, () -> {
                        throw new AssertionError(dir + "/" + n + " has no .cfg");
                    }));
                }
            });
        }
        return tests.stream();
    }

    /** Printable ASCII only, and no line longer than a terminal's few widths, whatever the input held. */
    static void assertReportIsReadable(FulcrumRun run) {
        String all = run.stdout() + run.stderr();
        for (String line : all.split("\n", -1)) {
            if (line.length() > 400) {
                throw new AssertionError("a report line is " + line.length() + " characters long:\n" + FulcrumRun.printable(line));
            }
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    throw new AssertionError("non-printable character 0x" + Integer.toHexString(c) + " at column " + i
                            + " of a report line:\n" + FulcrumRun.printable(line));
                }
            }
        }
    }

    // ---- how files are found and combined --------------------------------------------------------------

    @Test
    void missingConfigurationFileIsReported() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-f", "no-such-file.cfg");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : config : Cannot open configuration file/directory no-such-file.cfg : No such file or directory")
                .assertIn(r.maskedStderr(), r.describe());
        assertThat(r.stdout()).doesNotContain("Configuration file is valid");
    }

    @Test
    void oneMissingFileAmongSeveralFailsTheCheck() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-f", "valid/minimal-tcp.cfg", "-f", "valid/missing.cfg");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of("[ALERT]    (PID) : config : Cannot open configuration file/directory valid/missing.cfg : No such file or directory")
                .assertIn(r.maskedStderr(), r.describe());
    }

    @Test
    void directoryLoadsItsCfgFilesInLexicalOrder() throws Exception {
        // 10-defaults.cfg must come first (else the proxies miss their timeouts: a warning, fatal with -dW);
        // 20-frontend.cfg uses the backend 30-backend.cfg defines; README.txt and *.cfg.orig are not read.
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-dW", "-f", "confdir");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).as(r.describe()).contains("Configuration file is valid").doesNotContain("Warnings were found.");
        assertThat(r.stderr()).as(r.describe()).doesNotContain("[WARNING]").doesNotContain("[ALERT]");

        FulcrumRun slash = FulcrumRun.inCorpus("-c", "-dW", "-f", "confdir/");
        assertThat(slash.exit()).as(slash.describe()).isZero();
    }

    @Test
    void errorInADirectoryNamesTheFileInside() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-f", "confdir-error");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of(
                "[ALERT]    (PID) : config : parsing [confdir-error/20-bad.cfg:3] : 'retries' <*>'many'<*>",
                "[ALERT]    (PID) : config : Error(s) found in configuration file : confdir-error/20-bad.cfg",
                "[ALERT]    (PID) : config : Fatal errors found in configuration.",
                "!confdir-error/10-ok.cfg").assertIn(r.maskedStderr(), r.describe());
    }

    @Test
    void directoryWithoutCfgFilesIsNoConfiguration() throws Exception {
        // HAProxy then has no configuration at all: it prints its usage and exits 1.
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-f", "emptydir");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).as(r.describe()).doesNotContain("Configuration file is valid");
        assertThat(r.stderr()).as(r.describe()).contains("Usage : fulcrum");
    }

    @Test
    void severalFilesAreMergedInCommandLineOrder() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-dW", "-f", "split/global.cfg", "-f", "split/proxies.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("Configuration file is valid").doesNotContain("Warnings were found.");

        // Reversed, the proxies come before the defaults section: they have no timeouts.
        FulcrumRun reversed = FulcrumRun.inCorpus("-c", "-f", "split/proxies.cfg", "-f", "split/global.cfg");
        assertThat(reversed.exit()).as(reversed.describe()).isZero();
        assertThat(reversed.stdout()).contains("Warnings were found.");
        Expected.of("[WARNING]  (PID) : config : missing timeouts for frontend 'fe'.",
                "[WARNING]  (PID) : config : missing timeouts for backend 'be'.").assertIn(reversed.maskedStderr(), reversed.describe());
    }

    @Test
    void filesAfterDoubleDashAreConfigurationFiles() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-dW", "--", "split/global.cfg", "split/proxies.cfg");
        assertThat(r.exit()).as(r.describe()).isZero();
        assertThat(r.stdout()).contains("Configuration file is valid");
    }

    @Test
    /** As haproxy 2.6's -q ("disables the output messages"): not even an alert, the exit status tells. */
    void quietModeSilencesEverythingTheExitStatusTells() throws Exception {
        FulcrumRun ok = FulcrumRun.inCorpus("-q", "-c", "-f", "valid/minimal-tcp.cfg");
        assertThat(ok.exit()).as(ok.describe()).isZero();
        assertThat(ok.stdout()).as(ok.describe()).isEmpty();
        assertThat(ok.stderr()).as(ok.describe()).isEmpty();

        FulcrumRun warn = FulcrumRun.inCorpus("-q", "-c", "-f", "valid/warning-bind-in-backend.cfg");
        assertThat(warn.exit()).as(warn.describe()).isZero();
        assertThat(warn.stdout()).as(warn.describe()).isEmpty();
        assertThat(warn.stderr()).as(warn.describe()).isEmpty();

        FulcrumRun bad = FulcrumRun.inCorpus("-q", "-c", "-f", "invalid/bad-number-maxconn.cfg");
        assertThat(bad.exit()).as(bad.describe()).isEqualTo(1);
        assertThat(bad.stdout()).as(bad.describe()).isEmpty();
        assertThat(bad.stderr()).as(bad.describe()).isEmpty();
    }

    @Test
    void zeroWarningFlagTurnsAWarningIntoAFailure() throws Exception {
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-dW", "-f", "valid/warning-bind-in-backend.cfg");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        assertThat(r.stdout()).doesNotContain("Configuration file is valid");
        Expected.of(
                "[WARNING]  (PID) : config : parsing [valid/warning-bind-in-backend.cfg:8] : 'bind' ignored because backend 'be' has no frontend capability.",
                "[ALERT]    (PID) : config : Some warnings were found and 'zero-warning' is set. Aborting.")
                .assertIn(r.maskedStderr(), r.describe());

        FulcrumRun clean = FulcrumRun.inCorpus("-c", "-dW", "-f", "valid/minimal-tcp.cfg");
        assertThat(clean.exit()).as(clean.describe()).isZero();
    }

    @Test
    void everyErrorOfAFileIsReportedInOneRun() throws Exception {
        // Two broken files: both are named, each with its own summary line.
        FulcrumRun r = FulcrumRun.inCorpus("-c", "-f", "invalid/bad-number-maxconn.cfg", "-f", "invalid/unexpected-argument.cfg");
        assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        Expected.of(
                "[ALERT]    (PID) : config : parsing [invalid/bad-number-maxconn.cfg:2] : <*>",
                "[ALERT]    (PID) : config : Error(s) found in configuration file : invalid/bad-number-maxconn.cfg",
                "[ALERT]    (PID) : config : parsing [invalid/unexpected-argument.cfg:2] : 'maxconn' cannot handle unexpected argument '200'.",
                "[ALERT]    (PID) : config : Error(s) found in configuration file : invalid/unexpected-argument.cfg",
                "[ALERT]    (PID) : config : Fatal errors found in configuration.").assertIn(r.maskedStderr(), r.describe());
    }
}
