package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/** Expected output is what haproxy -c 2.6.12 prints for the same files (the oracle test re-checks it). */
class ConfigReaderTest {
    private static final Map<String, String> VARS = Map.of("FOO", "foo");
    private static final Set<String> SECTIONS = Set.of("global", "defaults", "frontend", "backend", "listen");

    /** The files of the scenarios below, for the comparison with HAProxy. */
    private static final Map<String, String> FILES = new LinkedHashMap<>();

    static {
        FILES.put("blocks.cfg", """
                global
                .if defined(FOO) && streq("$FOO",foo)
                  .if version_before(2.4)
                    old-keyword
                  .elif feature(EPOLL)
                    new-keyword "${FOO}"
                  .else
                    other-keyword
                  .endif
                .elif bad(
                  never
                .else
                  never
                .endif
                  last # comment
                """);
        FILES.put("lexerr.cfg", """
                global
                .notice "a
                .notice "b$"
                  .notice 'x\\x4' "\\x4" after
                .notice "c"
                """);
        FILES.put("dropped.cfg", """
                global
                .if 0
                .notice "x
                .if bad(
                .foo
                .endif
                .notice "after"
                """);
        FILES.put("condition.cfg", "global\n.if 1\n  .if 1 && defined(FOO) junk  \n.notice \"never\"\n.endif\n");
        FILES.put("endifjunk.cfg", "global\n.if 1\n.endif junk\n.notice \"never\"\n");
        FILES.put("unterminated.cfg", "global\n.if 1\n.notice \"in\"\n\n");
        FILES.put("unknown.cfg", "global\n.foo\n.notice \"never\"\n");
        FILES.put("nul.cfg", "global\n.notice a\0b\n.notice \"never\"\n");
        FILES.put("nolf.cfg", "global\n.notice \"last\"");
        FILES.put("messages.cfg", "global\n.diag \"d\"\n.warning \"w\"\n.notice \"n\" \"\"\n.notice \"n\" x\n.alert \"a\"\n.notice \"never\"\n");
        FILES.put("pseudo.cfg", """
                .notice "<${.SECTION}>"
                global
                .notice "<${.SECTION}>:${.LINE}:${.FILE}"
                defaults def1
                frontend "f_${.SECTION}"
                .notice "<${.SECTION}>"
                """);
        FILES.put("nested.cfg", "global\n" + ".if 1\n".repeat(100));
        StringBuilder words = new StringBuilder(".notice");
        for (int i = 1; i <= 64; i++) {
            words.append(" w").append(i);
        }
        FILES.put("words.cfg", words + "\n.notice \"next\"\n");
        byte[] garbage = new byte[3000];
        new Random(42).nextBytes(garbage);
        String binary = new String(garbage, ISO_8859_1).replaceAll("[\n\0\"'#\\\\\r$]", "x");
        FILES.put("binary.cfg", "global\n    setenv JUNK " + binary.substring(0, 1500) + " \"" + binary.substring(1500) + "\n");
    }

    @TempDir
    Path dir;

    private record Result(String output, List<String> lines, boolean aborted) {
    }

    private Result read(String name) throws IOException {
        return read(name, false);
    }

    private Result read(String name, boolean diagMode) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, FILES.get(name), ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Diagnostics diag = new Diagnostics(new PrintStream(out, true, ISO_8859_1), 42);
        diag.diagMode(diagMode);
        ConfigReader reader = new ConfigReader(new Environment(VARS), diag);
        List<String> lines = new ArrayList<>();
        reader.read(file, name, line -> {
            lines.add(line.source().line() + ": " + line.join(0));
            if (SECTIONS.contains(line.keyword())) {
                reader.enterSection(line.has(1) ? line.arg(1) : line.keyword());
            }
        });
        return new Result(normalize(out.toString(ISO_8859_1)), lines, reader.aborted());
    }

    /**
     * Pids as "PID", without Fulcrum's own banner. Diagnostics also gives continuation lines a "   | "
     * margin that HAProxy 2.6 does not print under a condition error; it is taken off here.
     */
    private static String normalize(String output) {
        return output.replace("(42)", "(PID)").replace("\n   | ", "\n")
                .replaceAll("(?m)^.*Fulcrum version is .*\n", "");
    }

    @Test
    void keepsTheLinesOfTheBranchesTaken() throws IOException {
        Result r = read("blocks.cfg");
        assertThat(r.lines()).containsExactly("1: global", "6: new-keyword foo", "15: last");
        assertThat(r.output()).isEmpty();
        assertThat(r.aborted()).isFalse();
    }

    @Test
    void reportsTokenizerErrorsWithACaretAndGoesOn() throws IOException {
        Result r = read("lexerr.cfg");
        assertThat(r.output()).isEqualTo("""
                [ALERT]    (PID) : config : parsing [lexerr.cfg:2]: unmatched quote at position 9:
                  .notice "a
                          ^
                [ALERT]    (PID) : config : parsing [lexerr.cfg:3]: forbidden first char in environment variable name at position 12:
                  .notice "b$"
                             ^
                [ALERT]    (PID) : config : parsing [lexerr.cfg:4]: truncated or invalid hexadecimal sequence at position 19:
                  .notice 'x\\x4' "\\x4" after
                                  ^
                [NOTICE]   (PID) : config : parsing [lexerr.cfg:5]: 'c'.
                """);
        assertThat(r.aborted()).isFalse();
    }

    @Test
    void aDroppedBlockIsStillTokenizedButNotEvaluated() throws IOException {
        Result r = read("dropped.cfg");
        assertThat(r.output()).isEqualTo("""
                [ALERT]    (PID) : config : parsing [dropped.cfg:3]: unmatched quote at position 9:
                  .notice "x
                          ^
                [ALERT]    (PID) : config : parsing [dropped.cfg:7]: non-terminated '.if' block.
                """);
        assertThat(r.aborted()).isTrue();
    }

    @Test
    void aBadConditionAbortsAndShowsTheExpressionAsRebuilt() throws IOException {
        Result r = read("condition.cfg");
        assertThat(r.output()).isEqualTo("""
                [ALERT]    (PID) : config : parsing [condition.cfg:3]: unexpected character 'j' at the end of conditional \
                expression '1 && defined(FOO) junk ' in '.if' at position 19:
                  .if 1 && defined(FOO) junk\s
                                        ^
                """);
        assertThat(r.aborted()).isTrue();
    }

    @Test
    void argumentsToEndifAbortAfterTheUnterminatedBlockCheck() throws IOException {
        Result r = read("endifjunk.cfg");
        assertThat(r.output()).isEqualTo("""
                [ALERT]    (PID) : config : parsing [endifjunk.cfg:3]: Unexpected argument 'junk' for '.endif'.
                [ALERT]    (PID) : config : parsing [endifjunk.cfg:3]: non-terminated '.if' block.
                """);
        assertThat(r.aborted()).isTrue();
    }

    @Test
    void anUnterminatedBlockIsReportedAtTheLastLine() throws IOException {
        Result r = read("unterminated.cfg");
        assertThat(r.output()).isEqualTo("""
                [NOTICE]   (PID) : config : parsing [unterminated.cfg:3]: 'in'.
                [ALERT]    (PID) : config : parsing [unterminated.cfg:4]: non-terminated '.if' block.
                """);
        assertThat(r.aborted()).isTrue();
    }

    @Test
    void anUnknownDirectiveEndsTheFileWithoutAborting() throws IOException {
        Result r = read("unknown.cfg");
        assertThat(r.output()).isEqualTo("[ALERT]    (PID) : config : parsing [unknown.cfg:2]: unknown directive '.foo'.\n");
        assertThat(r.aborted()).isFalse();
    }

    @Test
    void aNulEndsTheFileAfterTheLineBeforeIt() throws IOException {
        Result r = read("nul.cfg");
        assertThat(r.output()).isEqualTo("""
                [NOTICE]   (PID) : config : parsing [nul.cfg:2]: 'a'.
                [ALERT]    (PID) : config : parsing [nul.cfg:2]: Stray NUL character at position 10.
                """);
        assertThat(r.aborted()).isFalse();
    }

    @Test
    void aLastLineWithoutLineFeedIsReadThenReported() throws IOException {
        Result r = read("nolf.cfg");
        assertThat(r.output()).isEqualTo("""
                [NOTICE]   (PID) : config : parsing [nolf.cfg:2]: 'last'.
                [ALERT]    (PID) : config : parsing [nolf.cfg:2]: Missing LF on last line, file might have been truncated at position 15.
                """);
    }

    @Test
    void messageDirectives() throws IOException {
        String expected = """
                [WARNING]  (PID) : config : parsing [messages.cfg:3]: 'w'.
                [NOTICE]   (PID) : config : parsing [messages.cfg:4]: 'n'.
                [ALERT]    (PID) : config : parsing [messages.cfg:5]: Unexpected argument 'x' for '.notice'. Use quotes if the message should contain spaces.
                [ALERT]    (PID) : config : parsing [messages.cfg:6]: 'a'.
                """;
        Result r = read("messages.cfg");
        assertThat(r.output()).isEqualTo(expected);
        assertThat(r.aborted()).isTrue();
        assertThat(read("messages.cfg", true).output())
                .isEqualTo("[DIAG]     (PID) : config : parsing [messages.cfg:2]: 'd'.\n" + expected);
    }

    @Test
    void pseudoVariables() throws IOException {
        Result r = read("pseudo.cfg");
        assertThat(r.output()).isEqualTo("""
                [NOTICE]   (PID) : config : parsing [pseudo.cfg:1]: '<>'.
                [NOTICE]   (PID) : config : parsing [pseudo.cfg:3]: '<global>:3:pseudo.cfg'.
                [NOTICE]   (PID) : config : parsing [pseudo.cfg:6]: '<f_def1>'.
                """);
        assertThat(r.lines()).containsExactly("2: global", "4: defaults def1", "5: frontend f_def1");
    }

    @Test
    void atMost99NestedBlocks() throws IOException {
        Result r = read("nested.cfg");
        assertThat(r.output()).isEqualTo("[ALERT]    (PID) : config : parsing [nested.cfg:101]: too many nested '.if', max is 100.\n");
        assertThat(r.aborted()).isTrue();
    }

    @Test
    void tooManyWordsSkipsTheLine() throws IOException {
        Result r = read("words.cfg");
        assertThat(r.output()).isEqualTo("""
                [ALERT]    (PID) : config : parsing [words.cfg:1]: too many words, truncating after word 64, position 248: <w63>.
                [NOTICE]   (PID) : config : parsing [words.cfg:2]: 'next'.
                """);
        assertThat(r.aborted()).isFalse();
    }

    @Test
    void aBinaryLineIsReportedShortAndPrintable() throws IOException {
        Result r = read("binary.cfg");
        List<String> lines = r.output().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("[ALERT]    (PID) : config : parsing [binary.cfg:2]: unmatched quote at position 1518:");
        assertThat(lines.subList(1, 3)).allSatisfy(l -> {
            assertThat(l.length()).isLessThanOrEqualTo(88);
            assertThat(l.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
        });
        assertThat(lines.get(2)).isEqualTo(" ".repeat(42) + "^");
    }

    /** The lines the reader itself prints ("parsing [F:L]: ", no space before the colon) and their excerpts. */
    private static final Pattern READER_LINE = Pattern.compile("^(.*parsing \\[[^]]*\\]: .*|  (?! \\| ).*)$");

    private static List<String> readerLines(String output) {
        return output.lines().filter(l -> READER_LINE.matcher(l).matches()).toList();
    }

    @Test
    void agreesWithHaproxy() throws Exception {
        assumeThat(HaproxyOracle.available()).as("haproxy installed").isTrue();
        int compared = 0;
        for (String name : FILES.keySet()) {
            for (boolean diagMode : List.of(false, true)) {
                Result fulcrum = read(name, diagMode);
                HaproxyOracle.Result oracle = diagMode
                        ? HaproxyOracle.run(dir, VARS, "-dD", "-c", "-f", name)
                        : HaproxyOracle.run(dir, VARS, "-c", "-f", name);
                List<String> expected = readerLines(oracle.output());
                assertThat(readerLines(fulcrum.output())).as(name).isEqualTo(expected);
                compared += expected.size();
            }
        }
        assertThat(compared).as("lines compared").isGreaterThan(50);
    }
}
