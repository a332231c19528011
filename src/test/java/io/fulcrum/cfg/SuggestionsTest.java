package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SuggestionsTest {

    @Test
    void suggestsTheClosestKeywordForATypo() {
        List<String> known = List.of("bind", "balance", "backlog", "timeout");
        assertThat(Suggestions.closest("bnid", known)).isEqualTo("bind");
        assertThat(Suggestions.closest("timout", known)).isEqualTo("timeout");
        assertThat(Suggestions.closest("blance", known)).isEqualTo("balance");
    }

    @Test
    void suggestsNothingForAnUnrelatedWord() {
        assertThat(Suggestions.closest("frobnicate", List.of("bind", "balance"))).isNull();
        assertThat(Suggestions.closest("x", List.of())).isNull();
    }

    @Test
    void countsASwapOfTwoLettersAsOneEdit() {
        assertThat(Suggestions.distance("bnid", "bind")).isEqualTo(1);
        assertThat(Suggestions.distance("bind", "bind")).isZero();
        assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
    }
}
