package io.fulcrum.cfg;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected lines are those haproxy -c 2.6.12 prints under an unmatched quote or a bad .if. */
class LinePrinterTest {

    @Test
    void shortLineIsShownWithoutItsIndentation() {
        assertThat(LinePrinter.excerpt("  .notice \"a\"  \"x", 15))
                .containsExactly(".notice \"a\"  \"x", "             ^");
    }

    @Test
    void errorInTheFirst80ColumnsShowsThemAndCutsTheRestSilently() {
        String raw = "    .notice " + "a".repeat(70) + " \"" + "b".repeat(20);
        assertThat(LinePrinter.excerpt(raw, 4 + 8 + 70 + 1))
                .containsExactly(".notice " + "a".repeat(70) + " \"", " ".repeat(79) + "^");
        String shorter = ".notice aaaaaaaaaa \"" + "b".repeat(100);
        assertThat(LinePrinter.excerpt(shorter, 19))
                .containsExactly(".notice aaaaaaaaaa \"" + "b".repeat(60), " ".repeat(19) + "^");
    }

    @Test
    void errorFurtherRightShows37CharactersOnEachSide() {
        String raw = "    .notice " + "a".repeat(100) + " \"" + "b".repeat(100);
        assertThat(LinePrinter.excerpt(raw, 4 + 8 + 100 + 1))
                .containsExactly("..." + "a".repeat(36) + " \"" + "b".repeat(36) + "...", " ".repeat(40) + "^");
        // The marks are there even when the line ends before the window does.
        assertThat(LinePrinter.excerpt(".notice " + "a".repeat(100) + " \"bbbbb", 109))
                .containsExactly("..." + "a".repeat(36) + " \"bbbbb...", " ".repeat(40) + "^");
        assertThat(LinePrinter.excerpt(".notice " + "a".repeat(71) + " \"", 80))
                .containsExactly("..." + "a".repeat(36) + " \"...", " ".repeat(40) + "^");
    }

    @Test
    void blanksPrintAsSpacesAndOtherUnprintablesAsQuestionMarks() {
        assertThat(LinePrinter.excerpt(".notice \"$\" a\tb\u0001c\u007fd\u0080e\u00fff?g\u000bh\fi\rj\u001bk", 10))
                .containsExactly(".notice \"$\" a b?c?d?e?f?g h i j?k", "          ^");
    }

    @Test
    void conditionErrorsKeepTheDirectiveAndCutTheExpressionToTheRest() {
        assertThat(LinePrinter.excerpt(".if ", "1 junk", 2)).containsExactly(".if 1 junk", "      ^");
        String ones = "1".repeat(200) + " x";
        assertThat(LinePrinter.excerpt(".if ", ones, 201))
                .containsExactly(".if ..." + "1".repeat(34) + " x...", " ".repeat(42) + "^");
        assertThat(LinePrinter.excerpt(".elif ", ones, 201))
                .containsExactly(".elif ..." + "1".repeat(33) + " x...", " ".repeat(43) + "^");
        assertThat(LinePrinter.excerpt(".if ", "1".repeat(75) + " x", 76))
                .containsExactly(".if ..." + "1".repeat(34) + " x...", " ".repeat(42) + "^");
    }

    @Test
    void aLongBinaryLineGivesAShortPrintableReport() {
        byte[] garbage = new byte[5000];
        new Random(7).nextBytes(garbage);
        String raw = "    setenv JUNK " + new String(garbage, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (int column : List.of(0, 4, 79, 80, 2500, raw.length() - 1, raw.length())) {
            List<String> lines = LinePrinter.excerpt(raw, column);
            assertThat(lines).hasSize(2);
            assertThat(lines).allSatisfy(l -> {
                assertThat(l.length()).isLessThanOrEqualTo(86);
                assertThat(l.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
            });
            assertThat(lines.get(1)).endsWith("^").matches(" *\\^");
        }
    }

    @Property
    void alwaysTwoPrintableLinesOfAtMost86Columns(@ForAll @StringLength(max = 400) String raw,
                                                  @ForAll @IntRange(max = 420) int column) {
        List<String> lines = LinePrinter.excerpt(raw, Math.min(column, raw.length()));
        assertThat(lines).hasSize(2);
        assertThat(lines).allSatisfy(l -> {
            assertThat(l.length()).isLessThanOrEqualTo(86);
            assertThat(l.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
        });
    }
}
