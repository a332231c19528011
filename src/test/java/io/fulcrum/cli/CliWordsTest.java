package io.fulcrum.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CliWordsTest {

    @Test
    void semicolonsSeparateCommandsAndBlanksSeparateWords() {
        assertThat(CliWords.split("show info;  show\tstat  typed ;quit"))
                .containsExactly(List.of("show", "info"), List.of("show", "stat", "typed"), List.of("quit"));
    }

    @Test
    void aBackslashMakesTheNextCharacterPlain() {
        assertThat(CliWords.split("add map m a\\;b\\ c d\\\\e")).containsExactly(List.of("add", "map", "m", "a;b c", "d\\e"));
    }

    @Test
    void emptyCommandsStayEmpty() {
        assertThat(CliWords.split(";;")).containsExactly(List.of(), List.of(), List.of());
        assertThat(CliWords.split("")).containsExactly(List.of());
    }

    @Test
    void aTrailingBackslashIsKept() {
        assertThat(CliWords.split("a\\")).containsExactly(List.of("a\\"));
    }
}
